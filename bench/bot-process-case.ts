/**
 * The bot agent process memory case, in its own process: `episodes` bot:chatter episodes of `turns`
 * turns one after another (one seat per process, so each process plays many episodes, as in a long
 * run), reading every live agent process's memory from /proc at each accepted move: the kernel's peak
 * RSS (VmHWM) and the private part (RssAnon, sampled). Deterministic workload, no load from other lanes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunConfig } from '../orchestrator/run-config.js';
import { runExperiment } from '../orchestrator/run/driver.js';
import type { WorkerPool } from '../orchestrator/supervisor/worker-pool.js';
import { caseArgs, reportCase } from './child.js';
import { processMemory } from './memory.js';

export interface BotProcessCaseArgs {
  episodes: number;
  turns: number;
}

export interface BotProcessCaseResult {
  episodes: number;
  processes: number;
  peakRssKb: number;
  peakPrivateKb: number;
}

const a = caseArgs<BotProcessCaseArgs>();
const out = mkdtempSync(join(tmpdir(), 'parley-bench-botprocess-'));
let pool: WorkerPool | undefined;
const seen = new Set<number>();
let peakRssKb = 0;
let peakPrivateKb = 0;
try {
  const config = RunConfig.parse({ scenarios: 'builtin', modes: ['agents'], out, repeats: Math.ceil(a.episodes / 20), limit: a.episodes, concurrency: 1, maxTurns: a.turns, agents: [{ spec: 'bot:chatter' }] });
  const result = await runExperiment(config, { log: () => {}, hosting: 'local' }, {
    progressIntervalMs: 3_600_000,
    poolStarted: (p) => (pool = p),
    engine: {
      moveAccepted: () => {
        for (const pid of pool?.pids ?? []) {
          const m = processMemory(pid);
          if (!m) continue;
          seen.add(pid);
          peakRssKb = Math.max(peakRssKb, m.hwmKb);
          peakPrivateKb = Math.max(peakPrivateKb, m.anonKb);
        }
      },
    },
  });
  const report: BotProcessCaseResult = { episodes: result.ran.length, processes: seen.size, peakRssKb, peakPrivateKb };
  reportCase({ ...report });
} finally {
  rmSync(out, { recursive: true, force: true });
}
