import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomicSync } from '../disk/atomic-write.js';
import { cassettePath } from './cassette-layout.js';
import type { RunLock } from './lock.js';
import { RUN_DIR_NAMES, type RunPaths } from './paths.js';

/**
 * An episode's own files: its seats' ledgers and cassettes (`ledgers/<episode>/<seat>.jsonl`,
 * `cassettes/<episode>/<seat>.jsonl`), named by their path relative to the run directory. A queue worker
 * reads them from its scratch copy of the layout and the coordinator writes them into the run; resume
 * discards those of an episode that was started but never recorded.
 */
export interface EpisodeFile {
  /** `ledgers/<episode>/<name>.jsonl` or `cassettes/<episode>/<name>.jsonl`. */
  path: string;
  text: string;
}

const EPISODE_DIRS: readonly string[] = [RUN_DIR_NAMES.ledgers, RUN_DIR_NAMES.cassettes];

/** Whether `path` is a ledger or cassette file of `episodeId` (no traversal, no other episode). */
export function isEpisodeFile(path: string, episodeId: string): boolean {
  const parts = path.split('/');
  return (
    parts.length === 3 &&
    EPISODE_DIRS.includes(parts[0]!) &&
    parts[1] === episodeId &&
    /^[A-Za-z0-9_.-]+\.jsonl$/.test(parts[2]!) &&
    !parts[2]!.startsWith('.')
  );
}

/** Every ledger and cassette file under a directory laid out as a run directory (a worker's scratch copy). */
export function readEpisodeFiles(paths: RunPaths): EpisodeFile[] {
  const files: EpisodeFile[] = [];
  for (const top of EPISODE_DIRS) {
    let episodes: string[];
    try {
      episodes = readdirSync(join(paths.dir, top));
    } catch {
      continue;
    }
    for (const ep of episodes) {
      for (const name of readdirSync(join(paths.dir, top, ep))) {
        files.push({ path: `${top}/${ep}/${name}`, text: readFileSync(join(paths.dir, top, ep, name), 'utf8') });
      }
    }
  }
  return files;
}

/**
 * Writes one of `episodeId`'s files into the locked run, whole (through a rename). Returns false, writing
 * nothing, for a path that is not one of that episode's files (a worker's result is untrusted).
 */
export function writeEpisodeFile(lock: RunLock, episodeId: string, file: EpisodeFile): boolean {
  if (!isEpisodeFile(file.path, episodeId)) return false;
  writeFileAtomicSync(join(lock.paths.dir, ...file.path.split('/')), file.text);
  return true;
}

/** Removes the ledgers and cassettes of an episode that has no record (it runs again). Returns whether any existed. */
export function discardEpisodeFiles(lock: RunLock, episodeId: string): boolean {
  const { paths } = lock;
  const dirs = [paths.episodeLedgersDir(episodeId), dirname(cassettePath(paths.cassettesDir, { episodeId, seat: 'x' }))];
  let found = false;
  for (const d of dirs) {
    if (!existsSync(d)) continue;
    rmSync(d, { recursive: true, force: true });
    found = true;
  }
  return found;
}
