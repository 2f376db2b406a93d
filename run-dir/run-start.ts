import { existsSync, readFileSync, rmSync } from 'node:fs';
import { writeFileAtomicSync } from '../disk/atomic-write.js';
import { readEpisodes } from './episodes-file.js';
import type { RunLock } from './lock.js';
import type { RunPaths } from './paths.js';

/** run.json as it is before a run starts (null: there is none), so a start that runs nothing can be undone. */
export function runJsonSnapshot(paths: RunPaths): string | null {
  return existsSync(paths.runJson) ? readFileSync(paths.runJson, 'utf8') : null;
}

/**
 * Undoes the start of a run that ran nothing (the port was in use, Redis went away): a directory this
 * invocation started keeps no run.json or scenarios.jsonl, and an existing run gets its run.json back as
 * it was (its stats and end are not wiped).
 */
export function undoRunStart(lock: RunLock, before: string | null): void {
  const { paths } = lock;
  if (before === null) {
    if (!readEpisodes(paths).rows.length) for (const f of [paths.runJson, paths.scenariosJsonl]) rmSync(f, { force: true });
  } else writeFileAtomicSync(paths.runJson, before);
}
