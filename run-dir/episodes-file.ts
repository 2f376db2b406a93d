import { closeSync, existsSync, fstatSync, ftruncateSync, openSync, readSync, statSync, truncateSync, writeSync } from 'node:fs';
import { writeFileAtomicSync } from '../disk/atomic-write.js';
import { readRegularFile, RUN_FILE_CAPS } from '../disk/regular-file.js';
import { jsonlLines } from '../disk/jsonl-lines.js';
import { EpisodeRecord, RunErrorCode } from '../protocol/index.js';
import type { RunPaths } from './paths.js';
import type { RunLock } from './lock.js';

/**
 * `episodes.jsonl`, one record per line: the one reader and the one appender of the file.
 *
 * Torn lines. Records are appended as whole lines in a single `write`, but a process killed inside the
 * write (SIGKILL can cut a multi-page write short) or a machine crash can leave bytes after the last
 * newline. Those bytes are never a record (the one torn-line rule, disk/jsonl-lines.ts): every reader
 * skips them and says so (`torn`), and the orchestrator cuts them off (`repairTail`) before it appends again. A bad line *between* newlines is
 * something else (a hand edit, a bug) and is reported by number in `badLines`.
 */

/** One record as read: validated, with the raw object (fields this version does not know survive a rewrite). */
export interface EpisodeRow {
  record: EpisodeRecord;
  raw: Record<string, unknown>;
  /** 1-based line number in the file. */
  line: number;
}

/** A line of episodes.jsonl that is not a record: not JSON, not a record, or a record whose evaluation is malformed. */
export interface BadLine {
  line: number;
  code: typeof RunErrorCode.BadJson | typeof RunErrorCode.BadRecord | typeof RunErrorCode.BadEvaluation;
  message: string;
}

export interface EpisodesRead {
  /** One row per episode id, in file order; when an id appears more than once the last line wins. */
  rows: EpisodeRow[];
  /** Lines that are not a valid record, with why and its code (not counting a torn tail). */
  badLines: BadLine[];
  /** Lines dropped because a later line has the same episode id. */
  duplicates: number;
  /** Bytes after the last newline (an interrupted append), or 0. */
  tornBytes: number;
  /** Why the file could not be read at all (not a regular file, over its size cap): then no rows. */
  unreadable?: string;
}

function where(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  const first = issues[0];
  if (!first) return 'invalid';
  return `field ${first.path.map(String).join('.') || '(record)'}: ${first.message}`;
}

/** Reads every record of `episodes.jsonl` (an absent file is an empty run). */
export function readEpisodes(paths: RunPaths): EpisodesRead {
  const out: EpisodesRead = { rows: [], badLines: [], duplicates: 0, tornBytes: 0 };
  if (!existsSync(paths.episodesJsonl)) return out;
  const read = readRegularFile(paths.episodesJsonl, RUN_FILE_CAPS.jsonl, paths.dir);
  if (!read.ok) {
    out.badLines.push({ line: 0, code: RunErrorCode.BadRecord, message: read.message });
    return { ...out, unreadable: read.message };
  }
  const { lines, tornBytes } = jsonlLines(read.text);
  out.tornBytes = tornBytes;
  const byId = new Map<string, EpisodeRow>();
  for (const { line, text } of lines) {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (err) {
      out.badLines.push({ line, code: RunErrorCode.BadJson, message: `not JSON (${(err as Error).message})` });
      continue;
    }
    let parsed = EpisodeRecord.safeParse(raw);
    if (!parsed.success) {
      const issues = parsed.error.issues;
      // A malformed evaluation (what `parley eval` stored) has its own code. The episode itself is sound:
      // its row is kept without the evaluation, so a resumed run does not play (and pay for) it again,
      // while every reader of evaluations refuses the file naming this line.
      const evaluationOnly = issues.every((i) => i.path[0] === 'evaluation');
      out.badLines.push({ line, code: evaluationOnly ? RunErrorCode.BadEvaluation : RunErrorCode.BadRecord, message: where(issues) });
      if (!evaluationOnly) continue;
      const { evaluation: _malformed, ...rest } = raw as Record<string, unknown>;
      parsed = EpisodeRecord.safeParse(rest);
      if (!parsed.success) continue;
    }
    if (byId.delete(parsed.data.episodeId)) out.duplicates += 1; // re-inserted: keeps file order of the survivors
    byId.set(parsed.data.episodeId, { record: parsed.data, raw: raw as Record<string, unknown>, line });
  }
  out.rows = [...byId.values()];
  return out;
}

/**
 * Appends one record as one complete line in a single `write`. A short write (disk full) is taken back
 * by truncating to the size before, so this process never leaves half a line. The caller holds the run
 * directory's lock.
 */
export function appendEpisode(lock: RunLock, record: EpisodeRecord): void {
  const { paths } = lock;
  const line = Buffer.from(JSON.stringify(record) + '\n', 'utf8');
  const fd = openSync(paths.episodesJsonl, 'a');
  try {
    const before = fstatSync(fd).size;
    let written: number;
    try {
      written = writeSync(fd, line);
    } catch (err) {
      ftruncateSync(fd, before);
      throw err;
    }
    if (written !== line.length) {
      ftruncateSync(fd, before);
      throw new Error(`${paths.episodesJsonl}: short write (${written} of ${line.length} bytes); the partial line was removed`);
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Removes a torn last line (bytes after the last newline) so the next append starts on a line of its
 * own. Returns the number of bytes removed (0: the file was whole). The caller holds the lock.
 */
export function repairTail(lock: RunLock): number {
  const file = lock.paths.episodesJsonl;
  if (!existsSync(file)) return 0;
  const size = statSync(file).size;
  if (size === 0) return 0;
  const fd = openSync(file, 'r');
  let keep = -1;
  try {
    // Scan back from the end for the last newline, a block at a time.
    const block = Buffer.alloc(64 * 1024);
    for (let end = size; end > 0 && keep < 0; ) {
      const start = Math.max(0, end - block.length);
      const n = readSync(fd, block, 0, end - start, start);
      const at = block.subarray(0, n).lastIndexOf(0x0a);
      if (at >= 0) keep = start + at + 1;
      end = start;
    }
  } finally {
    closeSync(fd);
  }
  if (keep < 0) keep = 0;
  if (keep === size) return 0;
  truncateSync(file, keep);
  return size - keep;
}

/**
 * Replaces `episodes.jsonl` with `rows`, atomically (temp file + rename). Rows are raw objects, so fields
 * this code does not know survive. The caller holds the lock: a rewrite next to an appending writer
 * would drop what that writer appended after the file was read.
 */
export function rewriteEpisodes(lock: RunLock, rows: readonly object[]): void {
  writeFileAtomicSync(lock.paths.episodesJsonl, rows.map((r) => JSON.stringify(r) + '\n').join(''));
}
