import { regularFileProblem } from '../../disk/regular-file.js';
import { resolve } from 'node:path';
import { OrchestratorFrame, type EpisodeRecord } from '../../protocol/index.js';
import { episodeMatchProblem, matchEpisodeId, readEpisodes, readJsonlFile, readRunJson, readRunScenarios, RunPaths } from '../../run-dir/index.js';
import type { Scenario } from '../../scenarios/model.js';
import { RunConfig } from '../run-config.js';

/** A recorded episode a fork starts from, read from its run directory and validated. */
export interface ForkParent {
  /** The parent run directory (absolute). */
  dir: string;
  runId: string;
  /** The parent run's configuration as it recorded it. */
  config: RunConfig;
  /** The parent's resolved protocol as run.json records it (absent in runs older than protocols). */
  protocol: unknown;
  record: EpisodeRecord;
  scenario: Scenario;
}

/** Why a run directory cannot be forked from: one line, fit for the terminal. */
export type ForkParentRead = { ok: true; parent: ForkParent } | { ok: false; message: string };

/**
 * An id that may name a file under the run directory: one path segment of safe characters. Episode and
 * seat ids come from the command line and from the parent's files, both untrusted: neither may pick a path
 * outside the parent's `ledgers/`.
 */
export const SAFE_ID = /^(?!\.{1,2}$)[A-Za-z0-9._-]{1,200}$/;

/**
 * Reads the parent of a fork: `run.json` (its config), the episode's record in `episodes.jsonl`, its
 * scenario in `scenarios.jsonl`, and checks that every seat of the episode has a ledger (a fork replays
 * what each seat was told). The episode is looked up among the records by equality, never used as a path
 * before it matched one.
 */
export function readForkParent(dir: string, episodeId: string): ForkParentRead {
  const paths = new RunPaths(resolve(dir));
  const run = readRunJson(paths);
  if (!run.ok) return { ok: false, message: `${dir} is not a readable run directory: ${run.message}` };
  if (!run.run) return { ok: false, message: `${dir} is not a run directory (no run.json)` };
  const config = RunConfig.safeParse(run.run.config);
  if (!config.success) return { ok: false, message: `${dir}/run.json: its config is not one this version can fork (${config.error.issues[0]?.path.join('.') || 'config'}: ${config.error.issues[0]?.message})` };
  const episodes = readEpisodes(paths);
  if (episodes.unreadable) return { ok: false, message: episodes.unreadable };
  const rows = episodes.rows;
  // The episode as `parley show` finds it: its exact id, or a part of it only one episode has.
  const match = matchEpisodeId(rows.map((r) => r.record.episodeId), episodeId);
  const row = match.ok ? rows.find((r) => r.record.episodeId === match.id) : undefined;
  if (!row) {
    return { ok: false, message: `${episodeMatchProblem(episodeId, match.ok ? [] : match.matches, dir)} (${rows.length} recorded; parley show ${dir} lists them)` };
  }
  const record = row.record;
  if (!SAFE_ID.test(record.episodeId)) return { ok: false, message: `${dir}: episode id ${JSON.stringify(record.episodeId.slice(0, 120))} is not a safe name` };
  if (record.mode === 'script') return { ok: false, message: `episode ${record.episodeId} is a script-mode episode: its dialogue was written in one call, so there is no turn to fork at (fork an agents or mindreaders episode)` };
  const scenarios = readRunScenarios(paths);
  if (!scenarios.ok) return { ok: false, message: `${dir}: ${scenarios.message}` };
  const scenario = scenarios.scenarios.get(record.scenarioId);
  if (!scenario) return { ok: false, message: `${dir}/scenarios.jsonl has no scenario ${JSON.stringify(record.scenarioId.slice(0, 120))} (episode ${record.episodeId}'s)` };
  const seats = scenario.seats.map((s) => s.seat);
  if (JSON.stringify(record.seats.map((s) => s.seat)) !== JSON.stringify(seats)) return { ok: false, message: `episode ${record.episodeId}'s seats do not match its scenario's` };
  for (const seat of seats) {
    if (!SAFE_ID.test(seat)) return { ok: false, message: `${dir}: seat id ${JSON.stringify(seat.slice(0, 64))} is not a safe name` };
    const ledger = regularFileProblem(paths.ledgerFile(record.episodeId, seat), paths.dir);
    // A ledger that is a symlink, a FIFO or a directory is refused by name, never followed or waited on.
    if (ledger?.reason === 'not_regular') return { ok: false, message: ledger.message };
    if (ledger) {
      return { ok: false, message: `${dir} keeps no ledger for seat ${seat} of episode ${record.episodeId}: a fork replays what each seat was told, so it needs the parent's ledgers` };
    }
  }
  return { ok: true, parent: { dir: paths.dir, runId: run.run.runId, config: config.data, protocol: run.run.protocol, record, scenario } };
}

/** A seat's ledger in the parent run, every line checked against the frame schema. */
export function readParentLedger(parent: ForkParent, seat: string): { ok: true; frames: OrchestratorFrame[] } | { ok: false; message: string } {
  const paths = new RunPaths(parent.dir);
  const read = readJsonlFile(paths.ledgerFile(parent.record.episodeId, seat), OrchestratorFrame, paths.dir);
  return read.ok ? { ok: true, frames: read.values } : { ok: false, message: read.message };
}

/**
 * The turns a fork may start at: 0 up to the number of leading turns that carry a move (a turn with an
 * error ended the parent and cannot be replayed).
 */
export function playedTurns(record: EpisodeRecord): number {
  const failed = record.turns.findIndex((t, i) => !t.action || t.turn !== i);
  return failed === -1 ? record.turns.length : failed;
}
