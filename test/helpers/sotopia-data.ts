import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cacheDir } from '../../scenarios/fetch/cache-dir.js';
import { SOTOPIA_FILES } from '../../scenarios/import/sotopia.js';
import { REPO } from './processes.js';

/** What a test that needs SOTOPIA's real profile files gets: where they are, or why they are not here. */
export type SotopiaData = { dir: string; skip: false; reason: '' } | { dir: ''; skip: true; reason: string };

const hasAll = (dir: string) => Object.values(SOTOPIA_FILES).every((f) => existsSync(join(dir, f)));

/**
 * The one lookup for SOTOPIA's real files (tests only): the project machines' `../shared/data/sotopia`,
 * else a verified download in the `parley scenarios fetch sotopia` cache. A fresh clone has neither; the
 * tests that need the real 450 instances then skip, and their name says why and which command provides
 * the data. Logic that a small fixture can exercise is tested on `test/fixtures/sotopia-mini/` instead.
 */
export function sotopiaData(): SotopiaData {
  const shared = resolve(REPO, '../shared/data/sotopia');
  if (hasAll(shared)) return { dir: shared, skip: false, reason: '' };
  const root = join(cacheDir(), 'sotopia');
  if (existsSync(root)) {
    for (const entry of readdirSync(root)) {
      const dir = join(root, entry);
      if (!entry.startsWith('.') && existsSync(join(dir, 'SOURCES.json')) && hasAll(dir)) return { dir, skip: false, reason: '' };
    }
  }
  return {
    dir: '',
    skip: true,
    reason: "skipped: needs SOTOPIA's real profiles (../shared/data/sotopia, or run `npx parley scenarios fetch sotopia` once)",
  };
}
