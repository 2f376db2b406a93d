import { closeSync, existsSync, fstatSync, ftruncateSync, openSync, readSync, statSync, truncateSync, writeSync } from 'node:fs';
import { writeFileAtomicSync } from '../disk/atomic-write.js';
import { readRegularFile, RUN_FILE_CAPS } from '../disk/regular-file.js';
import { jsonlLines } from '../disk/jsonl-lines.js';
import { compiledForMany, EpisodeRecord, RunErrorCode } from '../protocol/index.js';
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

/**
 * What identifies the file's bytes without reading them: device, inode (an atomic rewrite is a new one),
 * size, and modification and change times to the nanosecond (every write, truncation or rename changes
 * ctime, which no process can set back). Taken before a read, so a write during the read makes it stale.
 * Undefined when the file cannot be stat'ed: then it is absent, as `existsSync` says.
 */
function stampOf(file: string): string | undefined {
  let s;
  try {
    s = statSync(file, { bigint: true });
  } catch {
    return undefined; // as existsSync: a file that cannot be stat'ed is an absent one
  }
  return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
}

/** The file's identity when it was read (`stampOf`): `readEpisodes(paths, earlier)` returns `earlier` while it holds. */
const readStamps = new WeakMap<EpisodesRead, string>();

/**
 * Reads every record of `episodes.jsonl` (an absent file is an empty run). `earlier`: a read of the same
 * file by this process, returned as it is when the file has not changed since (same inode, size and times):
 * `parley run` reads the file before it takes the lock (which scenarios recorded episodes use) and again
 * under it, and a resumed paper grid is thousands of records to parse and validate a second time.
 */
export function readEpisodes(paths: RunPaths, earlier?: EpisodesRead): EpisodesRead {
  const out: EpisodesRead = { rows: [], badLines: [], duplicates: 0, tornBytes: 0 };
  const stamp = stampOf(paths.episodesJsonl);
  if (stamp === undefined) return out;
  if (earlier && readStamps.get(earlier) === stamp) return earlier;
  const read = readRegularFile(paths.episodesJsonl, RUN_FILE_CAPS.jsonl, paths.dir);
  if (!read.ok) {
    out.badLines.push({ line: 0, code: RunErrorCode.BadRecord, message: read.message });
    return { ...out, unreadable: read.message };
  }
  const { lines, tornBytes } = jsonlLines(read.text);
  out.tornBytes = tornBytes;
  const byId = new Map<string, EpisodeRow>();
  const schema = compiledForMany(EpisodeRecord, lines.length);
  for (const { line, text } of lines) readLine(out, byId, schema, line, text);
  out.rows = [...byId.values()];
  readStamps.set(out, stamp);
  return out;
}

/** One line of the file into `byId` (the last line of an id wins, in file order) or `out.badLines`. */
function readLine(out: EpisodesRead, byId: Map<string, EpisodeRow>, schema: typeof EpisodeRecord, line: number, text: string): void {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    out.badLines.push({ line, code: RunErrorCode.BadJson, message: `not JSON (${(err as Error).message})` });
    return;
  }
  let parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues;
    // A malformed evaluation (what `parley eval` stored) has its own code. The episode itself is sound:
    // its row is kept without the evaluation, so a resumed run does not play (and pay for) it again,
    // while every reader of evaluations refuses the file naming this line.
    const evaluationOnly = issues.every((i) => i.path[0] === 'evaluation');
    out.badLines.push({ line, code: evaluationOnly ? RunErrorCode.BadEvaluation : RunErrorCode.BadRecord, message: where(issues) });
    if (!evaluationOnly) return;
    const { evaluation: _malformed, ...rest } = raw as Record<string, unknown>;
    parsed = schema.safeParse(rest);
    if (!parsed.success) return;
  }
  if (byId.delete(parsed.data.episodeId)) out.duplicates += 1; // re-inserted: keeps file order of the survivors
  byId.set(parsed.data.episodeId, { record: parsed.data, raw: raw as Record<string, unknown>, line });
}

/**
 * The records `readEpisodes` would return after `appended` (lines `appendEpisode` returned) were appended
 * to a file that read as `rows`, the caller holding the run's lock from that read on: each line read back
 * as a line of the file is (parsed, checked, the last of an id winning), without reading the rest again.
 */
export function recordsWithAppended(rows: readonly EpisodeRow[], appended: readonly string[]): EpisodeRecord[] {
  const byId = new Map(rows.map((r) => [r.record.episodeId, r]));
  const scratch: EpisodesRead = { rows: [], badLines: [], duplicates: 0, tornBytes: 0 };
  const schema = compiledForMany(EpisodeRecord, appended.length);
  appended.forEach((text, i) => readLine(scratch, byId, schema, -(i + 1), text));
  return [...byId.values()].map((r) => r.record);
}

/**
 * Appends one record as one complete line in a single `write`. A short write (disk full) is taken back
 * by truncating to the size before, so this process never leaves half a line. The caller holds the run
 * directory's lock. Returns the line written (without its newline), for `recordsWithAppended`.
 */
export function appendEpisode(lock: RunLock, record: EpisodeRecord): string {
  const { paths } = lock;
  const text = JSON.stringify(record);
  const line = Buffer.from(text + '\n', 'utf8');
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
  return text;
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
export function rewriteEpisodes(lock: RunLock, rows: readonly object[], lines?: EpisodeLines): void {
  writeFileAtomicSync(lock.paths.episodesJsonl, rows.map((r) => (lines ? lines(r) : JSON.stringify(r) + '\n')).join(''));
}

/** A row's line (with its newline), made once per row object: see `episodeLines`. */
export type EpisodeLines = (row: object) => string;

/**
 * Lines of rows kept by the row object, for a writer that rewrites the file again and again while it
 * changes a few rows: `parley eval` rewrites episodes.jsonl every ~2 s, and serialising all 1,350 records
 * of the paper grid each time was most of its CPU (paper-scale, bench/suite-cost.md). A changed row must be
 * a new object (every rewriter replaces `raw` with a copy, never edits it in place): an object's line is
 * made once.
 */
export function episodeLines(): EpisodeLines {
  const made = new WeakMap<object, string>();
  return (row) => {
    let line = made.get(row);
    if (line === undefined) made.set(row, (line = JSON.stringify(row) + '\n'));
    return line;
  };
}
