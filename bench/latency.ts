import { loadavg } from 'node:os';
import { startFakeLlmServer } from '../testkit/fake-llm-server.js';
import { runCase } from './child.js';
import type { LatencyCaseArgs, LatencyCaseResult } from './latency-case.js';
import { BENCH_KEY_ENV, benchModel } from './llm-replies.js';
import { mb } from './stats.js';

export interface LatencyFigures extends LatencyCaseResult {
  concurrentEpisodes: number;
  turns: number;
  modelDelayMs: number;
  seatsPerProcess: number;
  requests: number;
  /** TCP connections the fake server accepted (agent processes keep them alive across requests). */
  connections: number;
  /** When this case ran and the machine's load average (1, 5, 15 min) as it started: figures taken under load are noisy. */
  measuredAt: string;
  loadAverage: number[];
  /**
   * agentMaxPerProcess: the highest VmHWM (peak RSS) of any agent process; agentMaxPrivatePerProcess: the
   * highest sampled RssAnon (its private part; the rest is mostly node's binary, shared by all).
   */
  rssMB: { orchestratorPeak: number; agentsPeakTotal: number; agentMaxPerProcess: number; agentMaxPrivatePerProcess: number };
}

/** The latency-bound case: the fake server runs here, the orchestrator and its agents in a case process. */
export async function latencyCase(o: { concurrent: number; turns: number; delayMs: number; seatsPerProcess: number; workerEntry?: string }, env: NodeJS.ProcessEnv = {}): Promise<LatencyFigures> {
  const measuredAt = new Date().toISOString();
  const loadAverage = loadavg().map((x) => Math.round(x * 100) / 100);
  // The server runs on the machine measured: it counts the requests without keeping their prompts (garbage
  // collecting thousands of them was a third of its CPU; bench/agent-profile.md, fourth pass).
  await using server = await startFakeLlmServer({ default: benchModel(o.delayMs), keepRequests: false });
  const args: LatencyCaseArgs = { baseURL: server.openaiBaseURL, ...o };
  const { result, orchestratorPeakKb, agents } = await runCase<LatencyCaseResult>('./latency-case.ts', args, { ...process.env, ...env, [BENCH_KEY_ENV]: 'bench' }, 900_000);
  return {
    concurrentEpisodes: o.concurrent,
    turns: o.turns,
    modelDelayMs: o.delayMs,
    seatsPerProcess: o.seatsPerProcess,
    ...result,
    requests: server.requestCount,
    connections: server.connections,
    measuredAt,
    loadAverage,
    rssMB: {
      orchestratorPeak: mb(orchestratorPeakKb),
      agentsPeakTotal: mb(agents.peakSumRssKb),
      agentMaxPerProcess: mb(agents.maxPerProcessKb),
      agentMaxPrivatePerProcess: mb(agents.maxPrivatePerProcessKb),
    },
  };
}
