import type { BotProcessFigures } from './bot-process.js';
import type { EngineFigures } from './engine.js';
import type { LatencyFigures } from './latency.js';
import type { QueueFigures } from './queue.js';
import type { TokensByProtocol } from './tokens.js';
import type { TransportFigures } from './transport.js';

/** The measured sections of bench/results.json, one per case (`--cases`). */
export interface BenchSections {
  engine: EngineFigures[];
  botAgentProcess: BotProcessFigures | null;
  latency: LatencyFigures[];
  queue: QueueFigures[];
  tokens: TokensByProtocol | null;
  transport: TransportFigures[];
}

/** Sizes that tell the engine section's entries apart (they differ under --quick). */
export interface EngineSizes {
  muxSize: number;
  mux1000Size: number;
}

const isMux1000 = (e: EngineFigures, s: EngineSizes) => e.multiplexed && e.concurrentEpisodes === s.mux1000Size;

/**
 * A run of some cases (`--cases latency`) written over a results file keeps the other cases' figures
 * from that file, so one case can be measured again (on a quiet machine) without losing the rest.
 * (Latency entries carry their own `measuredAt` and the machine's load average as they started.)
 */
export function mergeSections(fresh: BenchSections, previous: Partial<BenchSections>, ran: ReadonlySet<string>, sizes: EngineSizes): BenchSections {
  const engine = [
    ...(ran.has('engine') ? fresh.engine.filter((e) => !isMux1000(e, sizes)) : (previous.engine ?? []).filter((e) => !isMux1000(e, sizes))),
    ...(ran.has('mux1000') ? fresh.engine.filter((e) => isMux1000(e, sizes)) : (previous.engine ?? []).filter((e) => isMux1000(e, sizes))),
  ];
  return {
    engine,
    botAgentProcess: ran.has('botprocess') ? fresh.botAgentProcess : (previous.botAgentProcess ?? null),
    latency: ran.has('latency') ? fresh.latency : (previous.latency ?? []),
    queue: ran.has('queue') ? fresh.queue : (previous.queue ?? []),
    tokens: ran.has('tokens') ? fresh.tokens : (previous.tokens ?? null),
    transport: ran.has('transport') ? fresh.transport : (previous.transport ?? []),
  };
}

/** The latency case the contract names: this delay and seats per process. */
export function latencyAt(latency: readonly LatencyFigures[], delayMs: number, seatsPerProcess: number): LatencyFigures | undefined {
  return latency.find((l) => l.modelDelayMs === delayMs && l.seatsPerProcess === seatsPerProcess);
}

/** Each target of the project's performance issues, with the figure it is checked on and whether it is met. */
export function targetsOf(s: BenchSections, sizes: EngineSizes, headlineDelayMs: number) {
  const at100 = s.engine.find((e) => e.concurrentEpisodes === 100 && !e.multiplexed);
  const mux = s.engine.find((e) => e.multiplexed && e.concurrentEpisodes === sizes.muxSize);
  const mux1000 = s.engine.find((e) => isMux1000(e, sizes));
  const one = latencyAt(s.latency, headlineDelayMs, 1);
  const ten = latencyAt(s.latency, headlineDelayMs, 10);
  const cpu = (l: LatencyFigures | undefined, max: number) => (l ? { seatsPerProcess: l.seatsPerProcess, agentCpuMsPerTurn: l.window.cpuMsPerTurn.agents, max, met: l.window.cpuMsPerTurn.agents <= max } : null);
  const whole = (l: LatencyFigures | undefined, min: number) => (l ? { seatsPerProcess: l.seatsPerProcess, efficiency: l.wholeRun.efficiency, min, met: l.wholeRun.efficiency >= min } : null);
  return {
    overheadP99Under5msAt100: at100 ? { p99Ms: at100.overheadMs.p99, met: at100.overheadMs.p99 < 5 } : null,
    efficiencyAtLeast0_9: s.latency.map((l) => ({ modelDelayMs: l.modelDelayMs, seatsPerProcess: l.seatsPerProcess, efficiency: l.window.efficiency, met: l.window.efficiency >= 0.9 })),
    agentCpuPerTurn: [cpu(one, 2.5), cpu(ten, 1.5)].filter((x) => x !== null),
    wholeRunEfficiency: [whole(one, 0.85), whole(ten, 0.95)].filter((x) => x !== null),
    firstEpisodeWithin500ms: one?.firstEpisodeMs != null ? { firstEpisodeMs: one.firstEpisodeMs, met: one.firstEpisodeMs <= 500 } : null,
    llmSeatProcessAtMost70MB: one?.rssMB.agentMaxPerProcess != null ? { peakRssMB: one.rssMB.agentMaxPerProcess, met: one.rssMB.agentMaxPerProcess <= 70 } : null,
    botAgentProcessUnder45MB: s.botAgentProcess ? { peakRssMB: s.botAgentProcess.peakRssMB, peakPrivateMB: s.botAgentProcess.peakPrivateMB, met: s.botAgentProcess.peakRssMB < 45 } : null,
    multiplexed500Under4GB: mux ? { concurrentEpisodes: mux.concurrentEpisodes, totalPeakMB: mux.rssMB.totalPeak, met: mux.rssMB.totalPeak < 4096 } : null,
    multiplexed1000: mux1000 ? { concurrentEpisodes: mux1000.concurrentEpisodes, totalPeakMB: mux1000.rssMB.totalPeak, overheadP99Ms: mux1000.overheadMs.p99, met: mux1000.overheadMs.p99 < 2 && mux1000.rssMB.totalPeak < 4096 } : null,
    prefixShareAtLeast0_9: s.tokens?.parley.agents?.prefixShare.mean != null
      ? { protocol: 'parley', mode: 'agents', mean: s.tokens.parley.agents.prefixShare.mean, met: s.tokens.parley.agents.prefixShare.mean >= 0.9, paperMean: s.tokens.paper.agents?.prefixShare.mean ?? null }
      : null,
    queueEfficiency: s.queue.map((q) => ({ workers: q.workers, efficiency: q.efficiency })),
  };
}
