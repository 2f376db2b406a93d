import type { EpisodeRecord, Limits, OrchestratorFrame } from '../protocol/index.js';
import type { Scenario } from '../scenarios/model.js';

/**
 * What training/ needs of a recorded episode, handed in by the caller (the CLI reads run directories
 * through the run-directory reader and the evaluator's record format; training/ reads neither itself).
 */
export interface SourceEpisode {
  /** The run directory it came from (for messages and the index file). */
  runDir: string;
  record: EpisodeRecord;
  /** The scenario in full (from the run's `scenarios.jsonl`); null when the run did not keep it. */
  scenario: Scenario | null;
  /** The judge's scores per seat, `null` when the episode was not evaluated. */
  scores: Record<string, SeatScores> | null;
}

/** One seat's judgement: its scores by dimension, or the evaluation error's code. */
export type SeatScores = { ok: true; scores: Record<string, number> } | { ok: false; code: string };

/** Reads what a seat's process received, in order (its ledger), or says why not. */
export type LedgerReader = (runDir: string, episodeId: string, seat: string) => LedgerRead;
export type LedgerRead = { ok: true; frames: OrchestratorFrame[] } | { ok: false; message: string };

/** The limits a script-mode episode ran under (from the writer's `script.request`), or null when unknown. */
export type LimitsOf = (source: SourceEpisode) => Limits | null;
