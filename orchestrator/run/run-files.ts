import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fstatSync, ftruncateSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join, basename } from 'node:path';
import { EpisodeRecord } from '../../protocol/index.js';
import type { Scenario } from '../../scenarios/model.js';

/** The files of a run directory. */
export class RunFiles {
  constructor(readonly dir: string) {}

  get runJson(): string {
    return join(this.dir, 'run.json');
  }
  get scenariosJsonl(): string {
    return join(this.dir, 'scenarios.jsonl');
  }
  get episodesJsonl(): string {
    return join(this.dir, 'episodes.jsonl');
  }
  get ledgersDir(): string {
    return join(this.dir, 'ledgers');
  }
  get cassettesDir(): string {
    return join(this.dir, 'cassettes');
  }

  ensure(): void {
    mkdirSync(this.ledgersDir, { recursive: true });
  }

  writeRunJson(value: unknown): void {
    writeAtomic(this.runJson, JSON.stringify(value, null, 2) + '\n');
  }

  /** Removes run.json and scenarios.jsonl of an invocation that never started (e.g. its port was in use). */
  removeRunJson(): void {
    rmSync(this.runJson, { force: true });
    rmSync(this.scenariosJsonl, { force: true });
  }

  readRunJson(): Record<string, unknown> | null {
    if (!existsSync(this.runJson)) return null;
    try {
      return JSON.parse(readFileSync(this.runJson, 'utf8')) as Record<string, unknown>;
    } catch {
      return null;
    }
  }

  /** Every scenario used, in full (the judge and the metrics read them from here). */
  writeScenarios(scenarios: readonly Scenario[]): void {
    writeAtomic(this.scenariosJsonl, scenarios.map((s) => JSON.stringify(s) + '\n').join(''));
  }

  /**
   * Appends one record as one complete line in a single `write`. A short write (disk full) is taken back
   * by truncating to the size before, so this process never leaves half a line. A process killed inside
   * the write (SIGKILL can cut a multi-page write short) or a machine crash can still leave a torn last
   * line: `repairTail` removes it before the next append, and readers skip it.
   */
  appendEpisode(record: EpisodeRecord): void {
    const line = Buffer.from(JSON.stringify(record) + '\n', 'utf8');
    const fd = openSync(this.episodesJsonl, 'a');
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
        throw new Error(`${this.episodesJsonl}: short write (${written} of ${line.length} bytes); the partial line was removed`);
      }
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Removes a torn last line (bytes after the last newline) left by an interrupted write, so the next
   * append starts on a line of its own. Returns the number of bytes removed (0: the file was whole).
   */
  repairTail(): number {
    const file = this.episodesJsonl;
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
   * Records already in the run (for resuming): one per episode id — when an id appears more than once
   * (an older version, a hand edit) the last line wins and the others are counted in `duplicates`.
   * Unreadable lines are reported by number, not fatal.
   */
  readEpisodes(): { records: EpisodeRecord[]; badLines: number[]; duplicates: number } {
    if (!existsSync(this.episodesJsonl)) return { records: [], badLines: [], duplicates: 0 };
    const byId = new Map<string, EpisodeRecord>();
    const badLines: number[] = [];
    let duplicates = 0;
    readFileSync(this.episodesJsonl, 'utf8').split('\n').forEach((line, i) => {
      if (line.trim() === '') return;
      try {
        const parsed = EpisodeRecord.safeParse(JSON.parse(line));
        if (!parsed.success) return void badLines.push(i + 1);
        if (byId.has(parsed.data.episodeId)) {
          duplicates += 1;
          byId.delete(parsed.data.episodeId); // re-inserted below: keeps file order of the surviving lines
        }
        byId.set(parsed.data.episodeId, parsed.data);
      } catch {
        badLines.push(i + 1);
      }
    });
    return { records: [...byId.values()], badLines, duplicates };
  }

  /** Rewrites episodes.jsonl with only `keep` (used to drop failed records before retrying them). */
  rewriteEpisodes(keep: readonly EpisodeRecord[]): void {
    writeAtomic(this.episodesJsonl, keep.map((r) => JSON.stringify(r) + '\n').join(''));
  }
}

/** Writes a whole file through a temp file and a rename: readers never see half a file. */
export function writeAtomic(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
