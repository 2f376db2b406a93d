import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { CassetteFiles } from '../llm/cassette.js';
import type { ClientConfig } from '../llm/create-client.js';
import { replaySource } from '../llm/replay-source.js';

/**
 * Where cassettes lie in a run directory: the folder's name and one file per seat per episode,
 * `cassettes/<episode>/<seat>.jsonl`. Decided here with every other run-directory path (paths.ts takes the
 * folder's name from here); llm/cassette.ts owns only what a cassette file holds. Agent processes record
 * their own seat's calls, so this one file is what agent-node/ may import of run-dir/.
 */
export const CASSETTES_DIR = 'cassettes';

/** Which seat of which episode the calls belong to. */
export interface Tape {
  episodeId: string;
  seat: string;
}

/** Keeps ids usable as path segments without letting them climb out of the directory. */
function segment(id: string): string {
  const safe = id.replace(/[^A-Za-z0-9._-]/g, '_');
  return safe === '' || safe === '.' || safe === '..' ? `_${safe}` : safe;
}

/** The cassette file of a seat below a cassette folder: `<episode>/<seat>.jsonl`. */
export function cassettePath(cassetteDir: string, tape: Tape): string {
  return join(cassetteDir, segment(tape.episodeId), `${segment(tape.seat)}.jsonl`);
}

/**
 * Where a recorded run keeps its cassettes: `<runDir>/cassettes` when it exists (a run directory),
 * else `runDir` itself (a cassette directory given directly).
 */
export function cassetteRoot(runDir: string): string {
  const nested = join(runDir, CASSETTES_DIR);
  return existsSync(nested) ? nested : runDir;
}

/**
 * The cassette files of one seat's calls under a policy: recorded below its `cassetteDir`, and, when it
 * replays (`replayDir`, or a `replay:<dir>` spec), answered from that run's file for the same seat.
 */
export function policyCassettes(config: ClientConfig, tape: Tape): CassetteFiles {
  const cassetteDir = 'cassetteDir' in config ? config.cassetteDir : undefined;
  const replayFrom = replaySource(config);
  return {
    ...(cassetteDir ? { record: cassettePath(cassetteDir, tape) } : {}),
    ...(replayFrom ? { replay: cassettePath(cassetteRoot(replayFrom), tape) } : {}),
  };
}
