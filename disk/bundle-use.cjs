// @ts-check
'use strict';
/**
 * "In use" marks of cached bundles (disk/bundle-cache.js): a bundle's directory mtime, refreshed at most
 * hourly by every use, is what its pruning reads. CommonJS so that bin/parley.js's start, which runs
 * without Node's ES module loader (bin/cli-start.js), marks its bundle as every other use does.
 */
const { statSync, utimesSync } = require('node:fs');
const { dirname } = require('node:path');

/** A mark at most this old is left as it is. */
const USE_MARK_MS = 3600 * 1000;

/**
 * Records that the bundle holding `entry` is in use (its directory's mtime, refreshed at most hourly):
 * prune removes only bundles unused for a week. Long-lived processes call it when they fork from a bundle.
 * @param {string} entry
 */
function markUsed(entry) {
  const dir = dirname(entry);
  try {
    if (Date.now() - statSync(dir).mtimeMs > USE_MARK_MS) {
      const now = new Date();
      utimesSync(dir, now, now);
    }
  } catch {
    // A read-only cache: nothing prunes it either.
  }
}

exports.markUsed = markUsed;
