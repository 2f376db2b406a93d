import * as z from 'zod';

/*
 * The values of the protocol settings that only the run's side reads (run config, run.json, the engine,
 * the card). The two a seat is told, `BackgroundsRule` and `ScriptFormat`, are frame values and live in
 * protocol/simulation-protocol.ts with the frame that carries them.
 */

/**
 * Stop rules under `paper`. `code`: SOTOPIA's RuleBasedTerminatedEvaluator as run (turn numbers 0..maxTurns,
 * i.e. maxTurns + 1 moves; the stale count includes the masked `none` of the seat not on turn);
 * `paper`: as the paper words it (maxTurns moves; more than 2 consecutive `none` moves).
 */
export const StopRule = z.enum(['code', 'paper']);
export type StopRule = z.infer<typeof StopRule>;

/**
 * The temperature agents and mindreaders sample at under `paper` when their policy sets none. `code`: 1.0,
 * as SOTOPIA's runner scripts ran them (`scripts/run_interaction.sh` loads
 * `sotopia_conf/generation_utils_conf/generate.gin`, which binds `agenerate_action.temperature = 1.0`);
 * `paper`: 0.7, as the paper's appendix F states for every mode. The script writer samples at 0.7 under
 * both (`agenerate_script` is bound by no gin file).
 */
export const AgentTemperature = z.enum(['code', 'paper']);
export type AgentTemperature = z.infer<typeof AgentTemperature>;

/**
 * How an agent's reply is read under `paper`. `code`: as SOTOPIA's code read it (langchain's
 * `PydanticOutputParser`: the greedy `{…}` span, both keys required, the type one of the five exact strings),
 * anything else going to the one reformat request; `lenient`: Parley's reading (key synonyms, type spellings,
 * a missing argument for none/leave, wrapped objects), counted as `repairs.lenient`.
 */
export const ReplyReading = z.enum(['code', 'lenient']);
export type ReplyReading = z.infer<typeof ReplyReading>;

/**
 * What becomes of an agent's reply that is still unreadable after the one reformat request. `none`: the
 * turn is a `none` action that carries the failure (`TurnRecord.unparsable`) and the episode goes on, as
 * SOTOPIA's code did (the paper's default); `fail`: an explicit `policy/unparsable` error ends the episode
 * (Parley's default). A script writer's unreadable script follows the same switch (docs/fidelity.md).
 */
export const OnUnparsable = z.enum(['none', 'fail']);
export type OnUnparsable = z.infer<typeof OnUnparsable>;

/**
 * What becomes of a seat's LLM call that still fails after the client's retries (a provider error: an
 * HTTP error, a rate limit, a timeout, a refused connection, an unusable body). `none`: the turn is a
 * `none` that carries the failure (`TurnRecord.providerError`) and the episode goes on; a script writer's
 * failure becomes an empty script. SOTOPIA's code at `agent_vs_storyteller_v1` did this: `agenerate_action`
 * catches every exception and returns a `none`, `agenerate_script` returns an empty interaction (the
 * paper's default). `fail`: the failure ends the episode explicitly (Parley's default; `--retry-failed`
 * reruns it).
 */
export const OnProviderError = z.enum(['none', 'fail']);
export type OnProviderError = z.infer<typeof OnProviderError>;

/**
 * Which episodes count (issue 42). `first-valid`: SOTOPIA's experiment procedure at the paper's tag
 * (`scripts/exp_instruction.md`, `examples/fix_missing_episodes_with_tag.py`) deleted and re-ran every
 * episode with 5 or fewer moves or script turns and every one its judge could not score, so the paper's
 * numbers are over the first valid draw of each instance; Parley re-draws such an episode with the next
 * draw (a new episode id, so new randomness), keeps every draw, and counts the first valid one
 * (orchestrator/run/selection.ts). `all`: every episode counts as it came.
 */
export const Selection = z.enum(['first-valid', 'all']);
export type Selection = z.infer<typeof Selection>;

/** Draws per instance under `first-valid` (the first and up to four re-draws); SOTOPIA re-ran without a bound. */
export const MAX_DRAWS = 5;

/** The short rule of SOTOPIA's fix script: an episode with at most this many moves (or script turns) is re-drawn. */
export const SHORT_EPISODE_MOVES = 5;

/** Generators that may be sent judge-only text to reproduce what SOTOPIA's code sent them. */
export const JudgeOnlyLeakTarget = z.enum(['script', 'mindreaders']);
export type JudgeOnlyLeakTarget = z.infer<typeof JudgeOnlyLeakTarget>;
