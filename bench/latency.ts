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
  rssMB: { orchestratorPeak: number; agentsPeakTotal: number };
}

/** The latency-bound case: the fake server runs here, the orchestrator and its agents in a case process. */
export async function latencyCase(o: { concurrent: number; turns: number; delayMs: number; seatsPerProcess: number }): Promise<LatencyFigures> {
  await using server = await startFakeLlmServer({ default: benchModel(o.delayMs) });
  const args: LatencyCaseArgs = { baseURL: server.openaiBaseURL, ...o };
  const { result, orchestratorPeakKb, agents } = await runCase<LatencyCaseResult>('./latency-case.ts', args, { ...process.env, [BENCH_KEY_ENV]: 'bench' });
  return {
    concurrentEpisodes: o.concurrent,
    turns: o.turns,
    modelDelayMs: o.delayMs,
    seatsPerProcess: o.seatsPerProcess,
    ...result,
    requests: server.requests.length,
    rssMB: { orchestratorPeak: mb(orchestratorPeakKb), agentsPeakTotal: mb(agents.peakSumRssKb) },
  };
}
