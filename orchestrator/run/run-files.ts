import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
   * Appends one record as a single write of one complete line: a crash leaves either the whole line
   * or, at worst, a torn last line that `readEpisodes` skips.
   */
  appendEpisode(record: EpisodeRecord): void {
    appendFileSync(this.episodesJsonl, JSON.stringify(record) + '\n');
  }

  /** Records already in the run (for resuming); unreadable lines are reported, not fatal. */
  readEpisodes(): { records: EpisodeRecord[]; badLines: number[] } {
    if (!existsSync(this.episodesJsonl)) return { records: [], badLines: [] };
    const records: EpisodeRecord[] = [];
    const badLines: number[] = [];
    readFileSync(this.episodesJsonl, 'utf8').split('\n').forEach((line, i) => {
      if (line.trim() === '') return;
      try {
        const parsed = EpisodeRecord.safeParse(JSON.parse(line));
        if (parsed.success) records.push(parsed.data);
        else badLines.push(i + 1);
      } catch {
        badLines.push(i + 1);
      }
    });
    return { records, badLines };
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
