// @ts-check
/**
 * Puts a built bundle in its place in the cache (disk/bundle-cache.js). A bundle's directory is named by what it
 * was built from and holds that list (BUILT_FROM): a directory already under the name is reused only when it
 * says the same. Plain JavaScript, as the cache.
 */
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** In a bundle's directory: the key and the [path, sha1] list it was built from (its name is their hash). */
export const BUILT_FROM = 'built-from.json';

/**
 * Renames the built `staging` directory (its BUILT_FROM written: `builtFrom`) to `target`. A directory already
 * there is kept when it was built from the same (a concurrent use built it first, or a process runs from it);
 * else it is a stale write under this name (a cache of an older layout, a process that described its bundle
 * by files it had not bundled) and is replaced: moved to `aside` (a staging name of its own), then removed.
 * @param {string} staging
 * @param {string} target
 * @param {string} builtFrom
 * @param {string} main the bundle's main file, present in a complete bundle
 * @param {string} aside
 */
export function place(staging, target, builtFrom, main, aside) {
  const same = () => existsSync(join(target, main)) && readOr(join(target, BUILT_FROM)) === builtFrom;
  // Into an empty place first (a rename onto a directory that holds files fails): a bundle a concurrent use has
  // just placed under this name is then never moved aside, so a process starting from it never finds it gone.
  try {
    renameSync(staging, target);
    return;
  } catch {
    if (same()) return; // a concurrent use placed the same bundle first
  }
  try {
    renameSync(target, aside);
  } catch {
    // Gone already (a concurrent use moved it).
  }
  try {
    renameSync(staging, target);
  } catch (err) {
    if (!same()) throw err; // else a concurrent use placed the same bundle first
  } finally {
    rmSync(aside, { recursive: true, force: true });
  }
}

/**
 * @param {string} path
 * @returns {string | null}
 */
function readOr(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
