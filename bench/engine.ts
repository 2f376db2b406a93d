import { runCase } from './child.js';
import type { EngineCaseArgs, EngineCaseResult } from './engine-case.js';
import { mb } from './stats.js';

export interface EngineFigures extends EngineCaseResult {
  concurrentEpisodes: number;
  multiplexed: boolean;
  seatsPerProcess: number;
  rssMB: { orchestratorPeak: number; agentsPeakTotal: number; agentsSumOfPeaks: number; agentMaxPerProcess: number; agentMaxPrivatePerProcess: number; totalPeak: number };
}

/** One engine case in its own process, with the memory figures sampled from outside. */
export async function engineCase(concurrent: number, opts: { turns: number; seatsPerProcess: number }): Promise<EngineFigures> {
  const args: EngineCaseArgs = { concurrent, turns: opts.turns, seatsPerProcess: opts.seatsPerProcess };
  const { result, orchestratorPeakKb, agents } = await runCase<EngineCaseResult>('./engine-case.ts', args);
  return {
    concurrentEpisodes: concurrent,
    multiplexed: opts.seatsPerProcess > 1,
    seatsPerProcess: opts.seatsPerProcess,
    ...result,
    rssMB: {
      orchestratorPeak: mb(orchestratorPeakKb),
      agentsPeakTotal: mb(agents.peakSumRssKb),
      agentsSumOfPeaks: mb(agents.sumOfPeaksKb),
      agentMaxPerProcess: mb(agents.maxPerProcessKb),
      agentMaxPrivatePerProcess: mb(agents.maxPrivatePerProcessKb),
      totalPeak: mb(orchestratorPeakKb + agents.sumOfPeaksKb),
    },
  };
}
