import { join } from 'node:path';
import { CASSETTES_DIR } from './cassette-layout.js';

/** File and directory names inside a run directory: the one place they are spelled. */
export const RUN_DIR_NAMES = {
  runJson: 'run.json',
  scenarios: 'scenarios.jsonl',
  episodes: 'episodes.jsonl',
  judgements: 'judgements.journal.jsonl',
  ledgers: 'ledgers',
  cassettes: CASSETTES_DIR,
  lock: '.parley-run.lock',
} as const;

/**
 * The paths of one run directory (`runs/<run-id>/`, DESIGN "Runs on disk"). Every module that reads or
 * writes a run goes through these getters, so the layout is decided here alone.
 */
export class RunPaths {
  constructor(readonly dir: string) {}

  /** Configuration, versions, simulation card and stats (`run-json.ts`). */
  get runJson(): string {
    return join(this.dir, RUN_DIR_NAMES.runJson);
  }
  /** Every scenario the run used, in full (the judge and the metrics read them from here). */
  get scenariosJsonl(): string {
    return join(this.dir, RUN_DIR_NAMES.scenarios);
  }
  /** One record per episode (`episodes-file.ts`). */
  get episodesJsonl(): string {
    return join(this.dir, RUN_DIR_NAMES.episodes);
  }
  /** Judgements appended as each returns, until `eval` writes them into episodes.jsonl (`judgement-journal.ts`). */
  get judgementsJournal(): string {
    return join(this.dir, RUN_DIR_NAMES.judgements);
  }
  /** Who is writing the run directory (`lock.ts`). */
  get lockFile(): string {
    return join(this.dir, RUN_DIR_NAMES.lock);
  }
  get ledgersDir(): string {
    return join(this.dir, RUN_DIR_NAMES.ledgers);
  }
  /** The ledgers of one episode, one file per seat. */
  episodeLedgersDir(episodeId: string): string {
    return join(this.ledgersDir, episodeId);
  }
  /** Every frame one seat was sent (DESIGN invariant 4). */
  ledgerFile(episodeId: string, seat: string): string {
    return join(this.episodeLedgersDir(episodeId), `${seat}.jsonl`);
  }
  /** Recorded LLM calls, `<episode>/<seat>.jsonl` below (cassette-layout.ts; llm/cassette.ts owns the file format). */
  get cassettesDir(): string {
    return join(this.dir, RUN_DIR_NAMES.cassettes);
  }
}
