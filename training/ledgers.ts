import { existsSync } from 'node:fs';
import { readJsonlFile, RunPaths } from '../run-dir/index.js';
import { OrchestratorFrame, type Limits } from '../protocol/index.js';
import type { LedgerRead, SourceEpisode } from './source.js';

/** The seat id the script writer's ledger is filed under (`ledgers/<episode>/script.jsonl`). */
const SCRIPT_LEDGER_SEAT = 'script';

/**
 * Reads `DIR/ledgers/<episode>/<seat>.jsonl`, the frames the seat's process was sent, each checked
 * against the protocol's frame schema; a missing file or a bad line is an error naming it.
 */
export function readSeatLedger(runDir: string, episodeId: string, seat: string): LedgerRead {
  const file = new RunPaths(runDir).ledgerFile(episodeId, seat);
  if (!existsSync(file)) return { ok: false, message: `${file}: no ledger for seat ${seat} of episode ${episodeId}` };
  const read = readJsonlFile(file, OrchestratorFrame);
  return read.ok ? { ok: true, frames: read.values } : { ok: false, message: read.message };
}

/** A script episode's limits, as its writer was told them in `script.request`; null when not recorded. */
export function scriptLimits(source: SourceEpisode): Limits | null {
  const read = readSeatLedger(source.runDir, source.record.episodeId, SCRIPT_LEDGER_SEAT);
  if (!read.ok) return null;
  const request = read.frames.find((f) => f.type === 'script.request');
  return request?.type === 'script.request' ? request.limits : null;
}
