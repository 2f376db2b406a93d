import * as z from 'zod';
import { Mode, PolicyConfig } from '../protocol/index.js';
import { runConfigSettingsShape } from '../simulation/index.js';

/** Episodes in flight when neither the command line nor an experiment file says (queue/worker-decided-settings.ts reads it too). */
export const DEFAULT_CONCURRENCY = 4;

/**
 * Everything that defines a run. Built from CLI flags and/or an experiment YAML file (flags win),
 * written verbatim to `run.json`, and hashed into deterministic episode ids.
 */
export const RunConfig = z.object({
  /** `builtin` or a path to a Parley scenario file (JSONL). */
  scenarios: z.string().default('builtin'),
  /** Only scenarios tagged with this subset (e.g. hard, mutual_friends, craigslist_bargains). */
  subset: z.string().optional(),
  modes: z.array(Mode).min(1).default(['script', 'agents', 'mindreaders']),
  out: z.string(),
  maxTurns: z.number().int().positive().default(20),
  /** Per-turn deadline for a seat's reply. */
  turnDeadlineMs: z.number().int().positive().default(120_000),
  repeats: z.number().int().positive().default(1),
  /** Episodes in flight at once. */
  concurrency: z.number().int().positive().default(DEFAULT_CONCURRENCY),
  /** Run at most this many episodes (after filtering); for smoke tests and `serve --limit`. */
  limit: z.number().int().positive().optional(),
  /** Policy per seat position: agent1 plays the scenario's first seat, agent2 the second (and so on). */
  agents: z.array(PolicyConfig).min(1).default([{ spec: 'bot', params: {} }]),
  scriptWriter: PolicyConfig.default({ spec: 'bot', params: {} }),
  judge: PolicyConfig.optional(),
  /** What `parley eval` scores by default: a rubric file or a built-in name (sotopia, goal); absent = sotopia. */
  rubric: z.string().min(1).optional(),
  /** Re-run from a recorded run directory's cassettes, no network. */
  replay: z.string().optional(),
  /** Agent process pool: reuse processes across episodes; multiplex hosts seats of different episodes at once. */
  pool: z.object({ multiplex: z.boolean().default(false), seatsPerProcess: z.number().int().positive().default(1) }).default({ multiplex: false, seatsPerProcess: 1 }),
  retryFailed: z.boolean().default(false),
  /**
   * `--redraw` (after `parley eval`): under the `first-valid` selection, the counted draws the judge could
   * not score are marked superseded and re-drawn (orchestrator/run/selection.ts). Operational: the rule is
   * the protocol's; this says when to apply its eval-time half.
   */
  redraw: z.boolean().optional(),
  /**
   * `--repair-scenarios`: recorded episodes whose scenario scenarios.jsonl lacks take it from this run's
   * scenario source (orchestrator/run/kept-scenarios.ts). Operational: it changes no episode.
   */
  repairScenarios: z.boolean().optional(),
  /**
   * The simulation settings (simulation/settings.ts declares each): `protocol` (unset: the protocol that
   * claims the scenarios, run/protocol.ts), its switches, `mindread` and the judge view `parley eval` uses
   * by default. Each unset one is the protocol's default.
   */
  ...runConfigSettingsShape,
  seed: z.number().int().default(1),
  /**
   * `parley fork`: this run's episodes are forks of one recorded episode. Each replays the parent's first
   * turns exactly (no LLM call), then plays on live under this config (orchestrator/fork/).
   */
  fork: z
    .object({
      /** The parent run directory (absolute). */
      parent: z.string().min(1),
      /** The parent run's id, as its run.json names it. */
      parentRun: z.string().min(1),
      /** The parent episode's id. */
      episode: z.string().min(1),
      /** `--reveal FROM.FIELD:TO`, as given (orchestrator/fork/reveal.ts). */
      reveal: z.array(z.string()).default([]),
    })
    .strict()
    .optional(),
  /** `parley fork --at`: the fork turns, one fork per turn and repeat (adding turns extends the run, like repeats). */
  forkAt: z.array(z.number().int().nonnegative()).min(1).optional(),
});
export type RunConfig = z.infer<typeof RunConfig>;
export type RunConfigInput = z.input<typeof RunConfig>;
