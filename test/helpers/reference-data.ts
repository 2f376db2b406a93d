import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'vitest';
import { cacheDir } from '../../scenarios/fetch/cache-dir.js';
import { SOTOPIA_FILES } from '../../scenarios/import/sotopia.js';
import { REPO, removeTempDirsSince, tempDirMark } from './processes.js';

/** Where reference data a test needs is, or why it is not on this machine. */
export type ReferenceData = { dir: string; skip: false; reason: '' } | { dir: ''; skip: true; reason: string };

/** A SOTOPIA-shaped fixture of the project's own making (invented characters): on every clone. */
export { sotopiaMiniDir } from '../fixtures/sotopia-mini.js';

const hasAll = (dir: string, files: readonly string[]) => files.every((f) => existsSync(join(dir, f)));

/**
 * SOTOPIA's real profile files: the project machines' `../shared/data/sotopia`, else a verified download
 * in the `parley scenarios fetch sotopia` cache. A fresh clone has neither: the tests that need the real
 * 450 instances skip and say why; the logic they exercise is also tested on `sotopiaMiniDir()` (test/fixtures/sotopia-mini.ts).
 */
export function sotopiaData(): ReferenceData {
  const files = Object.values(SOTOPIA_FILES);
  const shared = resolve(REPO, '../shared/data/sotopia');
  if (hasAll(shared, files)) return { dir: shared, skip: false, reason: '' };
  const root = join(cacheDir(), 'sotopia');
  if (existsSync(root)) {
    for (const entry of readdirSync(root)) {
      const dir = join(root, entry);
      if (!entry.startsWith('.') && existsSync(join(dir, 'SOURCES.json')) && hasAll(dir, files)) return { dir, skip: false, reason: '' };
    }
  }
  return { dir: '', skip: true, reason: "needs SOTOPIA's real profiles: ../shared/data/sotopia, or run `npx parley scenarios fetch sotopia` once" };
}

/** cocoa's MutualFriends schema and Craigslist listings sample (`../shared/data/cocoa` on the project's machines). */
export function cocoaData(): ReferenceData {
  const dir = resolve(REPO, '../shared/data/cocoa');
  if (hasAll(dir, ['mutualfriends_friends_schema.json', 'craigslist_listings_sample.json'])) return { dir, skip: false, reason: '' };
  return { dir: '', skip: true, reason: "needs cocoa's files in ../shared/data/cocoa (mutualfriends_friends_schema.json and craigslist_listings_sample.json from stanfordnlp/cocoa)" };
}

/**
 * `describe` for tests that need reference data: without it the block is skipped, and the skip is
 * printed with its reason, so a fresh clone's `npm test` says which tests did not run and why.
 */
export function describeWithData(data: ReferenceData, title: string, fn: () => void): void {
  if (!data.skip) {
    describe(title, fn);
    return;
  }
  console.log(`skipped: ${title} (${data.reason})`);
  // The block is still collected, so its skipped tests are listed; the temp folders it makes as it is
  // collected are removed at once, since a skipped block's afterAll (which would remove them) never runs.
  describe.skip(`${title} (skipped: ${data.reason})`, () => {
    const mark = tempDirMark();
    try {
      fn();
    } finally {
      removeTempDirsSince(mark);
    }
  });
}

/** `it` for one test that needs reference data: skipped with its reason printed when the data is absent. */
export function itWithData(data: ReferenceData, title: string, fn: () => Promise<void> | void, timeoutMs?: number): void {
  if (!data.skip) {
    it(title, fn, timeoutMs);
    return;
  }
  console.log(`skipped: ${title} (${data.reason})`);
  it.skip(`${title} (skipped: ${data.reason})`, fn);
}
