import { resolve } from 'node:path';
import type { PolicyConfig } from '../../protocol/index.js';
import type { RunPaths } from '../../run-dir/index.js';
import { systemClock } from '../clock.js';
import type { RunConfig } from '../run-config.js';
import { scheduleEpisodes, type ScheduleOptions } from './episode-schedule.js';
import { lifecycleOptions, runLifecycle, type RunExecutor, type RunResult } from './lifecycle.js';
import type { StatusTerminal } from './progress-reporter.js';
import type { RunProbes } from './run-probes.js';

export { RunDirConflict, type RunResult } from './lifecycle.js';
export { recordedProtocolKey } from './protocol.js';

/** What a user (or `serve`) decides about a run beyond its config; test and bench seams are `RunProbes`. */
export interface DriverOptions extends ScheduleOptions {
  /** Progress and notices, one line each (never scenario content). */
  log: (line: string) => void;
  /** A terminal (stdout is a TTY): progress is one refreshing status line; otherwise plain lines. */
  tty?: StatusTerminal;
  /** Add scenarios, modes or repeats to the experiment already in the run directory (`--extend`). */
  extend?: boolean;
}

/**
 * `parley run` and `parley serve`: the run lifecycle (lifecycle.ts) with this machine as executor —
 * seats hosted by the local agent process pool (or, `serve`, by remote agents that dial in), with
 * `concurrency` episodes in flight.
 */
export async function runExperiment(input: RunConfig, opts: DriverOptions, probes: RunProbes = {}): Promise<RunResult> {
  return runLifecycle(input, localExecutor(opts, probes), lifecycleOptions({ ...opts, lockWaitMs: probes.lockWaitMs, progressIntervalMs: probes.progressIntervalMs }));
}

/** The local executor: an agent endpoint on this machine, seats on its agent pool or remote agents. */
function localExecutor(opts: DriverOptions, probes: RunProbes): RunExecutor {
  const remote = opts.hosting === 'remote';
  return {
    hosting: opts.hosting,
    command: remote ? 'serve' : 'run',
    configure: (input, paths) => (remote ? asRemote(input) : withRunDirs(input, paths)),
    // Remote seats bring their own policy: it is recorded from what each agent reports at join.
    ...(remote ? { adaptPlan: (p) => ({ ...p, policies: undefined }) } : {}),
    async execute(run) {
      const m = run.manifest;
      // Interrupted: episodes still ending are dropped unrecorded, so a rerun redoes them.
      const record: typeof run.record = (r) => {
        if (!opts.signal?.aborted) run.record(r);
      };
      // A re-draw is taken only for a record that was kept, and played on the same pool (local hosting).
      const redrawAfter = (r: Parameters<typeof run.redrawAfter>[0]) => (opts.signal?.aborted ? undefined : run.redrawAfter(r));
      await scheduleEpisodes(run.pending, { config: m.config, protocol: m.protocol, runId: m.runId, lock: run.lock, clock: probes.clock ?? systemClock, say: run.notice, record, ...(remote ? {} : { redrawAfter }), probes }, opts);
      return {};
    },
  };
}

/** Remote seats: the policy is the agent's business; episode ids say `remote` instead of a spec. */
function asRemote(config: RunConfig): RunConfig {
  return { ...config, agents: [{ spec: 'remote', params: {} }], scriptWriter: { spec: 'remote', params: {} } };
}

/** Local seats record LLM traffic under the run's `cassettes/`; `--replay` answers from a recorded run. */
function withRunDirs(config: RunConfig, paths: RunPaths): RunConfig {
  // Each seat finds its cassettes under a run directory (run-dir/cassette-layout.ts cassetteRoot).
  const replayDir = config.replay ? resolve(config.replay) : undefined;
  const dirs = (p: PolicyConfig): PolicyConfig => ({ ...p, cassetteDir: p.cassetteDir ?? paths.cassettesDir, ...(replayDir ? { replayDir } : {}) });
  return { ...config, agents: config.agents.map(dirs), scriptWriter: dirs(config.scriptWriter) };
}
