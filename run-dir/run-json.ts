import { existsSync } from 'node:fs';
import { readRegularFile, RUN_FILE_CAPS } from '../disk/regular-file.js';
import * as z from 'zod';
import { writeFileAtomicSync } from '../disk/atomic-write.js';
import { Mode, OwnCodeField, PolicyConfig, RunErrorCode, Total, Usage } from '../protocol/index.js';
import { runConfigSettingsShape, SimulationProtocol } from '../simulation/index.js';
import type { RunLock } from './lock.js';
import type { RunPaths } from './paths.js';
import { EvalBatch } from './eval-batches.js';

/** Version of the run.json format; bumped when a field changes meaning or a required field is added. */
export const RUN_JSON_VERSION = 1;

// Every count below is computed by Parley from its own records, so none is capped by a study size
// (`Total`: exact JSON integers only). Limits against hostile input sit where input enters: per frame and
// per move (protocol/meta.ts META_LIMITS), never on totals — a paper-grid run (2,700 episodes, tens of
// millions of tokens) must be able to write its own summary.

/** Episodes, outcomes and costs of a run, computed from its records (orchestrator/run/stats.ts). */
export const ModeStats = z.object({
  episodes: Total,
  ok: Total,
  failed: Total,
  /** Episodes with a task (MutualFriends, Craigslist) and how many succeeded. */
  task: z.object({ episodes: Total, success: Total, rate: z.number().nullable() }),
});
export type ModeStats = z.infer<typeof ModeStats>;

/** `usd` sums the priced models; `unpriced` lists models the table has no price for; `error` if the table is unreadable. */
export const RunCost = z.object({ usd: z.number().nullable(), unpriced: z.array(z.string()), error: z.string().optional() });
export type RunCost = z.infer<typeof RunCost>;

export const RunStats = z.object({
  episodes: z.object({ total: Total, ok: Total, failed: Total }),
  byMode: z.partialRecord(Mode, ModeStats),
  terminations: z.record(z.string(), Total),
  /** Crash recovery: seats re-established on a fresh agent process, and the episodes they belong to. */
  recoveries: z.object({ seats: Total, episodes: Total }),
  /** Provider retries summed over every turn (and script). */
  retries: Total,
  repairs: z.object({ lenient: Total, reformat: Total }),
  /** Structured-output ladder: LLM calls answered in JSON mode / with the schema in the prompt after a server rejected `response_format` (absent in runs written before the ladder). */
  formatFallbacks: z
    .object({
      rejected: Total,
      jsonMode: Total,
      prompt: Total,
      /** Judge calls (`parley eval`) answered below their rung, over every judge variant (run-dir/judge-fallbacks.ts). */
      judge: Total.default(0),
    })
    .default({ rejected: 0, jsonMode: 0, prompt: 0, judge: 0 }),
  /**
   * `--on-unparsable none`: agent turns whose reply stayed unreadable after one reformat request and were
   * recorded as `none` (each carries `unparsable`), and scripts that became an empty dialogue the same way
   * (`scriptWriter.unparsable`). Absent in runs written before the switch (they had none).
   */
  unparsableTurns: Total.default(0),
  unparsableScripts: Total.default(0),
  /**
   * `--on-provider-error none`: agent turns whose LLM call failed after its retries and were recorded as
   * `none` (each carries `providerError`), and scripts that became empty the same way
   * (`scriptWriter.providerError`). Absent in runs written before the switch (they had none).
   */
  providerErrorTurns: Total.default(0),
  providerErrorScripts: Total.default(0),
  /** Token usage by `provider:model`. */
  usage: z.record(z.string(), Usage.extend({ calls: Total })),
  /** Estimated US$ cost of that usage from the editable price table (llm/providers/<provider>.prices.json or $PARLEY_PRICES). */
  cost: RunCost,
  /**
   * Calls answered from a recorded run's cassettes (a replay): the recorded usage and what it cost when
   * recorded. Not part of `usage` and `cost`, which count only what this run spent.
   */
  replayed: z.object({ usage: z.record(z.string(), Usage.extend({ calls: Total })), cost: RunCost }).optional(),
});
export type RunStats = z.infer<typeof RunStats>;

/**
 * The run's configuration as recorded. The orchestrator owns the full schema (orchestrator/run-config.ts)
 * and writes it whole; readers of a run directory rely on these fields, typed here (a malformed one is
 * `run/bad_run_json` naming the field, never read through a cast), and the rest is kept as written.
 */
export const RecordedRunConfig = z.looseObject({
  /** The simulation settings (simulation/settings.ts): protocol, its switches, leak targets, mindread, judge view; unset = the protocol's default. */
  ...runConfigSettingsShape,
  /** What `parley eval` scores by default: a rubric file or a built-in name; absent = sotopia. */
  rubric: z.string().min(1).optional(),
  scenarios: z.string(),
  subset: z.string().optional(),
  modes: z.array(Mode),
  maxTurns: z.number().int(),
  seed: z.number().int(),
  agents: z.array(PolicyConfig).optional(),
  scriptWriter: PolicyConfig.optional(),
  judge: PolicyConfig.optional(),
  /** A fork run (`parley fork`): the parent run directory and id, and the parent episode. */
  fork: z.looseObject({ parent: z.string(), parentRun: z.string(), episode: z.string() }).optional(),
  /** A fork run: the fork turns. */
  forkAt: z.array(z.number().int()).optional(),
});
export type RecordedRunConfig = z.infer<typeof RecordedRunConfig>;

/**
 * `run.json`: what ran, with which code, prompts and scenarios, and how it went (DESIGN invariant 6).
 * Written by the orchestrator when a run starts (`endedAt: null`, `stats: null`) and when it ends; read
 * back with this same schema by the orchestrator (resume keeps the run id) and by the evaluator (the
 * judge named in the config, the simulation card). Fields added by later versions are kept on reading.
 */
export const RunJson = z.looseObject({
  /** Format version (absent in files written before the format was versioned, which are the same as 1). */
  v: z.literal(RUN_JSON_VERSION).default(RUN_JSON_VERSION),
  runId: z.string(),
  /**
   * The orchestrator's pid, at the top level where isolation audits look for it (also in `orchestrator`;
   * absent in runs written before it was copied here, which read as they are).
   */
  pid: z.number().int().optional(),
  code: z.object({ package: z.string(), git: z.string().nullable() }),
  orchestrator: z.object({ pid: z.number().int(), node: z.string(), host: z.string() }),
  /** local: seats played by the supervisor's agent processes; remote: by agents that dialled in (serve); queue: by `parley worker`s' agent processes. */
  hosting: z.enum(['local', 'remote', 'queue']),
  /**
   * Once an invocation ran with `--queue`: the Redis (password hidden), the run's key in it and the queue's name;
   * kept by later invocations without the queue (`hosting` is the last one's), so a `--queue` rerun finds its jobs.
   */
  queue: z
    .object({
      url: z.string(),
      runKey: z.string(),
      queue: z.string(),
      /**
       * What the workers that returned this run's episodes applied of the settings they decide (`concurrency`,
       * `pool`: each `parley worker`'s flags), one entry a worker (host and pid), at most 64 (queue/worker-decided-settings.ts);
       * absent before any worker that reports them returned an episode.
       */
      workers: z.array(z.object({ host: z.string(), pid: z.number().int(), concurrency: z.number().int(), pool: z.object({ multiplex: z.boolean(), seatsPerProcess: z.number().int() }) })).optional(),
    })
    .optional(),
  /**
   * Settings of the configuration this run's executor did not apply, as the configuration held them:
   * under `--queue`, `concurrency` and `pool` (each `parley worker` decides them by its own flags). They
   * are left out of `config` and `history`, which hold what applied (absent when everything applied).
   */
  notApplied: z.record(z.string(), z.unknown()).optional(),
  config: RecordedRunConfig,
  /**
   * Every invocation that ran into this directory: when, whether it extended the experiment, which
   * settings changed and its configuration (absent in runs written before history was kept).
   */
  history: z.array(z.object({ startedAt: z.string(), extend: z.boolean(), changed: z.array(z.string()), config: z.record(z.string(), z.unknown()) })).optional(),
  /** The simulation protocol every episode followed, resolved (absent in runs written before protocols: `parley`). */
  protocol: SimulationProtocol.optional(),
  /** Per prompt-template directory, each file's sha256. */
  prompts: z.array(z.object({ dir: z.string(), files: z.record(z.string(), z.string()) })),
  scenarioSet: z.object({
    source: z.string(),
    subset: z.string().nullable(),
    seed: z.number().int(),
    count: z.number().int(),
    ids: z.array(z.string()),
  }),
  episodes: z.object({ planned: z.number().int(), alreadyRecorded: z.number().int() }),
  startedAt: z.string(),
  /** Null while the run is going (or if it was killed). */
  endedAt: z.string().nullable(),
  /** The run was stopped (Ctrl-C) before every planned episode ran. */
  interrupted: z.boolean().optional(),
  stats: RunStats.nullable(),
  /**
   * The run ended (every record is on disk) but its summary could not be computed or written: what went
   * wrong, with a code. Running the same command again recomputes the summary and clears it.
   */
  /** Own code (`run/summary_failed`): only this run's orchestrator writes it (protocol/code-schema.ts). */
  summaryError: z.object({ code: OwnCodeField, message: z.string() }).optional(),
  /** Judge batches submitted by `parley eval --batch` (run-dir/eval-batches.ts); absent until the first. */
  evalBatches: z.array(EvalBatch).optional(),
});
export type RunJson = z.infer<typeof RunJson>;
/** What a writer passes: the version is filled in. */
export type RunJsonInput = z.input<typeof RunJson>;

/** A run.json that cannot be used, naming the file and the field. */
export type RunJsonRead = { ok: true; run: RunJson | null } | { ok: false; code: typeof RunErrorCode.BadJson | typeof RunErrorCode.BadRunJson; message: string };

/** Reads run.json with the schema it was written with; `run: null` when the directory has none yet. */
export function readRunJson(paths: RunPaths): RunJsonRead {
  const file = paths.runJson;
  if (!existsSync(file)) return { ok: true, run: null };
  // A run directory may come from someone else: a plain file of bounded size, or refused.
  const read = readRegularFile(file, RUN_FILE_CAPS.runJson, paths.dir);
  if (!read.ok) return { ok: false, code: RunErrorCode.BadRunJson, message: read.message };
  let raw: unknown;
  try {
    raw = JSON.parse(read.text);
  } catch (err) {
    return { ok: false, code: RunErrorCode.BadJson, message: `${file}: not JSON (${(err as Error).message})` };
  }
  const parsed = RunJson.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, code: RunErrorCode.BadRunJson, message: `${file}: field ${issue?.path.map(String).join('.') || '(root)'}: ${issue?.message ?? 'invalid'}` };
  }
  return { ok: true, run: parsed.data };
}

/** Validates and writes run.json atomically: a shape error is a bug, thrown before anything is written. */
export function writeRunJson(lock: RunLock, value: RunJsonInput): RunJson {
  const valid = RunJson.parse(value);
  writeFileAtomicSync(lock.paths.runJson, JSON.stringify(valid, null, 2) + '\n');
  return valid;
}
