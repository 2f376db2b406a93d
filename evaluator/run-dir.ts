import { existsSync } from 'node:fs';
import { RunErrorCode, type EpisodeRecord } from '../protocol/index.js';
import { missingScenarioIds, missingScenariosMessage, readEpisodes, readJudgementJournal, readRunJson, readRunScenarios, RunPaths, type JournalLine, type RunJson } from '../run-dir/index.js';
import type { Scenario } from '../scenarios/model.js';

/** A failure to read a run directory, naming the file, line and field. */
export interface RunDirError {
  code: typeof RunErrorCode.MissingFile | typeof RunErrorCode.BadJson | typeof RunErrorCode.BadRecord | typeof RunErrorCode.BadEvaluation | typeof RunErrorCode.BadRunJson | typeof RunErrorCode.MissingScenarios;
  message: string;
}

/** One episode as loaded: the validated record, and the raw JSON object (kept to rewrite unknown fields verbatim). */
export interface LoadedEpisode {
  record: EpisodeRecord;
  raw: Record<string, unknown>;
  line: number;
}

/** A run directory as the evaluator sees it (read through run-dir/, which owns the format). */
export interface RunDir {
  dir: string;
  /** `run.json`, read with the schema it was written with, or null if absent. */
  run: RunJson | null;
  scenarios: Map<string, Scenario>;
  episodes: LoadedEpisode[];
  /** Bytes of a torn last line (an append cut short by a crash) that were skipped: not a record. */
  tornBytes: number;
  /**
   * Every draw of the run when `episodes` holds only the counted ones (`parley report` under the
   * `first-valid` selection, cli/report-filters.ts): what the report's draw counts are read from.
   */
  allDraws?: LoadedEpisode[];
  /** Which draws `episodes` holds, when a selection was applied. */
  selection?: 'first-valid' | 'all';
  /** Judgements read from the journal (an eval stopped before writing them into episodes.jsonl) and applied. */
  journalled?: number;
}

export type LoadResult = { ok: true; run: RunDir } | { ok: false; error: RunDirError };

/**
 * Loads `DIR/run.json` (optional), `DIR/scenarios.jsonl` (optional: without it, metrics that need the
 * scenario's truth or targets are null) and `DIR/episodes.jsonl` (required). A line that is not a valid
 * record is an error naming it (the evaluator rewrites the file and must not drop it); a torn last line
 * is skipped and counted.
 */
export async function loadRunDir(dir: string): Promise<LoadResult> {
  const paths = new RunPaths(dir);
  if (!existsSync(paths.episodesJsonl)) {
    return { ok: false, error: { code: RunErrorCode.MissingFile, message: `${paths.episodesJsonl}: not found (is ${dir} a run directory?)` } };
  }
  const episodes = readEpisodes(paths);
  const run = readRunJson(paths);
  if (!run.ok) return { ok: false, error: { code: run.code, message: run.message } };
  const scenarios = readRunScenarios(paths);
  if (!scenarios.ok) return { ok: false, error: { code: scenarios.code, message: scenarios.message } };
  const bad = episodes.badLines[0];
  if (bad) {
    // The code rides in the message too: every command prints the message, and a malformed evaluation
    // (`run/bad_evaluation`) must read differently from a broken record.
    return { ok: false, error: { code: bad.code, message: `${paths.episodesJsonl}:${bad.line}: ${bad.code}: ${bad.message}` } };
  }
  // Episodes whose scenario the file lacks would fail one seat at a time in the judge: the run is refused
  // once, naming them and how to put them back.
  const missing = missingScenarioIds(episodes.rows.map((r) => r.record.scenarioId), scenarios.scenarios);
  if (missing.length) {
    const source = run.run?.config.scenarios;
    return { ok: false, error: { code: RunErrorCode.MissingScenarios, message: missingScenariosMessage(paths, missing, source) } };
  }
  const journal = readJudgementJournal(paths);
  if (!journal.ok) return { ok: false, error: { code: journal.code, message: journal.message } };
  const journalled = applyJournal(episodes.rows, journal.values);
  return { ok: true, run: { dir, run: run.run, scenarios: scenarios.scenarios, episodes: episodes.rows, tornBytes: episodes.tornBytes, journalled } };
}

/** Each journalled evaluation over its record, in order (the last of an episode wins); returns how many applied. */
function applyJournal(rows: LoadedEpisode[], lines: readonly JournalLine[]): number {
  const byId = new Map(rows.map((r) => [r.record.episodeId, r]));
  let applied = 0;
  for (const { episodeId, evaluation } of lines) {
    const row = byId.get(episodeId);
    // A line for an episode the file does not hold is not ours to add: records come from the run.
    if (!row || evaluation === undefined) continue;
    row.record.evaluation = evaluation;
    row.raw = { ...row.raw, evaluation };
    applied++;
  }
  return applied;
}
