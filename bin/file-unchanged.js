// @ts-check
'use strict';
/**
 * "Is this file still `size` bytes with this mtime?" for the start stamp's ~570 files (bin/cli-start.js), at
 * every `parley` start. Node 20's statSync builds a Stats object with four Dates for each file: ~20 ms of CPU
 * and ~400 page faults a start for the stamp's files, where the stat calls themselves are ~3 ms. Node's fs
 * binding fills one shared array with the same fields statSync reads, and the same arithmetic gives the same
 * mtimeMs: that is the check here. It is an internal API (DEP0111, documentation-only in Node 20), so each use
 * checks itself first: when the binding is missing, warns (--pending-deprecation) or disagrees with statSync
 * on the first file, every file goes through statSync, as before.
 */
const { statSync } = require('node:fs');

/** @typedef {(path: string, size: number, mtimeMs: number) => boolean} Unchanged */

/** @type {Unchanged} */
function unchangedByStat(path, size, mtimeMs) {
  const st = statSync(path, { throwIfNoEntry: false });
  return st !== undefined && st.size === size && st.mtimeMs === mtimeMs;
}

/** The Node 20 binding's stat, if this process may use it without a warning; else undefined. */
function bindingStat() {
  const options = `${process.env.NODE_OPTIONS ?? ''} ${process.execArgv.join(' ')}`;
  // NODE_PENDING_DEPRECATION=1 turns the same warnings on as the flag does.
  const warns = options.includes('--pending-deprecation') || process.env.NODE_PENDING_DEPRECATION === '1';
  if (warns || typeof process.binding !== 'function') return undefined;
  try {
    /** @type {{ stat?: unknown }} */
    const fs = process.binding('fs');
    return typeof fs.stat === 'function' ? /** @type {(path: string, bigint: boolean, req: undefined, throwIfNoEntry: boolean) => ArrayLike<number> | undefined} */ (fs.stat) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The cheapest check that gives statSync's answer in this process, tried on `probe` (a file that exists).
 * @param {string} probe
 * @returns {Unchanged}
 */
function unchangedCheck(probe) {
  const stat = bindingStat();
  if (!stat) return unchangedByStat;
  /** @type {Unchanged} */
  const unchanged = (path, size, mtimeMs) => {
    let a;
    try {
      a = stat(path, false, undefined, false);
    } catch {
      return unchangedByStat(path, size, mtimeMs);
    }
    // [8] size; [12], [13] mtime's seconds and nanoseconds, as lib/internal/fs/utils.js's msFromTimeSpec.
    return a !== undefined && a[8] === size && a[12] * 1e3 + a[13] / 1e6 === mtimeMs;
  };
  const st = statSync(probe, { throwIfNoEntry: false });
  if (!st || !unchanged(probe, st.size, st.mtimeMs) || unchanged(probe, st.size + 1, st.mtimeMs) || unchanged(probe, st.size, st.mtimeMs + 1)) return unchangedByStat;
  return unchanged;
}

module.exports = { unchangedCheck, unchangedByStat };
