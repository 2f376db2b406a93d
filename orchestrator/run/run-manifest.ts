import { hostname } from 'node:os';
import type { RunErrorCode } from '../../protocol/index.js';
import type { SimulationProtocol } from '../../simulation/index.js';
import { readRunJson, writeRunJson, type RunJson, type RunLock } from '../../run-dir/index.js';
import type { Scenario } from '../../scenarios/model.js';
import type { EpisodePlan } from '../episode-plan.js';
import type { RunConfig } from '../run-config.js';
import { codeVersion } from './code-version.js';
import type { HistoryEntry } from './experiment-identity.js';
import type { ReplayedSeat } from './stats.js';
import { promptTemplates } from './prompt-files.js';
import type { RunStats } from '../../run-dir/index.js';

/** Settings an executor may leave to others: how many episodes run at once and how processes are shared (the queue's workers decide them). */
export type NotAppliedSetting = 'concurrency' | 'pool';
/** A configuration as run.json records it: what applied. */
export type RecordedInput = Omit<RunConfig, NotAppliedSetting> & Partial<Pick<RunConfig, NotAppliedSetting>>;

/**
 * The configuration split into what run.json's `config` records and what the executor did not apply
 * (each key of `keys`, with the value the configuration held).
 */
export function splitNotApplied(input: RunConfig, keys: readonly NotAppliedSetting[] = []): { input: RecordedInput; notApplied?: Partial<Pick<RunConfig, NotAppliedSetting>> } {
  if (keys.length === 0) return { input };
  const recorded: RecordedInput = { ...input };
  const notApplied: Partial<Pick<RunConfig, NotAppliedSetting>> = {};
  for (const k of keys) {
    (notApplied as Record<string, unknown>)[k] = input[k];
    delete recorded[k];
  }
  return { input: recorded, notApplied };
}

/** What run.json says about a run from its start (everything but how it ended). */
export interface RunManifest {
  runId: string;
  /** local: the supervisor's agent processes; remote: agents that dialled in (serve); queue: `parley worker`s. */
  hosting: RunJson['hosting'];
  /**
   * Once an invocation ran with `--queue`: the Redis (password hidden), the run's key in it and the queue's name;
   * kept by later invocations without the queue (`hosting` is the last one's), so a `--queue` rerun finds its jobs.
   */
  queue?: RunJson['queue'];
  /** The configuration as given (recorded verbatim), without the settings the executor did not apply. */
  input: RecordedInput;
  /** The settings of the configuration the executor did not apply (run.json's `notApplied`). */
  notApplied?: Partial<Pick<RunConfig, NotAppliedSetting>>;
  /** The configuration as run (cassette directories filled in, remote policies). */
  config: RunConfig;
  /** The simulation protocol every episode followed, resolved (defaults filled in). */
  protocol: SimulationProtocol;
  plans: readonly EpisodePlan[];
  scenarios: readonly Scenario[];
  skipped: number;
  startedAt: string;
  /** Every invocation that ran into this directory: resumes, and `--extend`s with what they changed. */
  history: HistoryEntry[];
  /** Seats answered from a recorded run's cassettes (a replay): their usage is reported as replayed, not spent. */
  isReplayed?: ReplayedSeat;
}

/** How a run ended, for run.json (null stats while it is going). */
export type RunEnding =
  | { endedAt: null; stats: null }
  | { endedAt: string; interrupted: boolean; stats: RunStats }
  /** Ended with every record on disk, but the summary failed: run.json says why, and a rerun repairs it. */
  | { endedAt: string; interrupted: boolean; stats: null; summaryError: { code: RunErrorCode; message: string } };

/** Writes run.json (validated by its schema in run-dir/) at the start of a run and at its end, for every executor. */
export function writeManifest(lock: RunLock, m: RunManifest, ending: RunEnding): RunJson {
  const { config, plans } = m;
  const usesAgents = plans.some((p) => p.mode !== 'script');
  const usesWriter = plans.some((p) => p.mode === 'script');
  // Judge batches belong to the directory, not to one invocation: a resumed or extended run keeps them,
  // so `parley eval --batch` still finds a pending batch to collect.
  const previous = readRunJson(lock.paths);
  const evalBatches = previous.ok ? previous.run?.evalBatches : undefined;
  return writeRunJson(lock, {
    ...(evalBatches?.length ? { evalBatches } : {}),
    runId: m.runId,
    pid: process.pid,
    code: codeVersion(),
    orchestrator: { pid: process.pid, node: process.version, host: hostname() },
    hosting: m.hosting,
    ...(m.queue ? { queue: m.queue } : {}),
    ...(m.notApplied ? { notApplied: m.notApplied } : {}),
    config: m.input,
    protocol: m.protocol,
    prompts: promptTemplates([...(usesAgents ? config.agents : []), ...(usesWriter ? [config.scriptWriter] : [])]),
    scenarioSet: { source: config.scenarios, subset: config.subset ?? null, seed: config.seed, count: m.scenarios.length, ids: m.scenarios.map((s) => s.id) },
    episodes: { planned: plans.length, alreadyRecorded: m.skipped },
    startedAt: m.startedAt,
    history: m.history,
    ...ending,
  });
}
