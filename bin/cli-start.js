// @ts-check
'use strict';
/**
 * What every `parley` process does before its command: find the CLI bundle and load it. CommonJS
 * (bin/package.json), as bin/parley.js: a process whose bundle is current never starts Node's ES module
 * loader, which was ~20 ms of CPU of every command (an ES module entry, then the five modules of the
 * bundle's check) on a loaded machine: the ~550 commands the test suite starts pay it each.
 *
 * The check of a current bundle: the start stamp (`start.json`, beside the cache's manifest) lists every
 * file the bundle was built from (the manifest's inputs) and every file that computes the cache's key
 * (bin/cli-bundle.mjs, disk/bundle-cache.js, disk/bundle-plugins.js, esbuild's package.json), each with its
 * size and mtime, plus this checkout's root and Node's version. All unchanged: the stamp's bundle is the one
 * the full check would take. Anything else (a file touched or edited, no stamp, another Node) goes through
 * that check (bin/cli-bundle.mjs, disk/bundle-cache.js: contents hashed, a rebuild if needed), which
 * writes the stamp again. A stamp is written only for a bundle the full check has just found current, from
 * its manifest: it never says more than the manifest does.
 */
const { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { dirname, join, resolve, sep } = require('node:path');
const { markUsed } = require('../disk/bundle-use.cjs');
const { unchangedCheck } = require('./file-unchanged.js');

/** The package root (bin/ sits at it), with a trailing separator. */
const PACKAGE_ROOT = resolve(__dirname, '..') + sep;

/** `<node_modules>/.cache/parley/cli`, next to the esbuild this package depends on. */
function cliCacheDir() {
  return join(dirname(dirname(require.resolve('esbuild/package.json'))), '.cache', 'parley', 'cli');
}

/**
 * Commands bin/parley.js runs from the light bundle (`light.cjs`, of cli/light-main.ts, which lists the same
 * names: test/cli-bundle.test.ts): commands that read a run, ~0.3-0.5 MB of code instead of the whole CLI's
 * ~4 MB that every process starting from it reads, compiles (from its code cache) and runs the top level of.
 * One build makes both files, in one directory, from one manifest: the check that they are current is one.
 */
const LIGHT_COMMANDS = Object.freeze(['show', 'report', 'pack', 'verify']);

/**
 * The bundle file that runs `parley <argv[0]>`, given the main one: the light bundle for LIGHT_COMMANDS.
 * @param {string} mainFile
 * @param {string | undefined} command
 */
function bundleFor(mainFile, command) {
  return command !== undefined && LIGHT_COMMANDS.includes(command) ? join(dirname(mainFile), 'light.cjs') : mainFile;
}

const STAMP = 'start.json';
const STAMP_VERSION = 1;
const BUNDLE_NAME = /^b-[0-9a-f]{16}$/;

/** @typedef {{ v: number, root: string, node: string, bundle: string, main: string, files: Array<[string, number, number]> }} Stamp */

/**
 * The main file of the bundle the start stamp in `dir` vouches for, if every file it lists is as it was;
 * else null (the caller runs the full check).
 * @param {string} [root]
 * @param {string} [dir]
 * @returns {string | null}
 */
function stampedBundle(root = PACKAGE_ROOT, dir = cliCacheDir()) {
  /** @type {Stamp} */
  let s;
  try {
    s = JSON.parse(readFileSync(join(dir, STAMP), 'utf8'));
  } catch {
    return null;
  }
  if (!s || s.v !== STAMP_VERSION || s.root !== root || s.node !== process.versions.node || typeof s.bundle !== 'string' || !BUNDLE_NAME.test(s.bundle) || s.main !== 'main.cjs' || !Array.isArray(s.files)) return null;
  // The stamp itself is a file that exists: the probe of the cheap check (bin/file-unchanged.js).
  const unchanged = unchangedCheck(join(dir, STAMP));
  for (const f of s.files) {
    if (!Array.isArray(f) || typeof f[0] !== 'string' || typeof f[1] !== 'number' || typeof f[2] !== 'number') return null;
    if (!unchanged(f[0], f[1], f[2])) return null;
  }
  const entry = join(dir, s.bundle, s.main);
  if (!existsSync(entry)) return null;
  markUsed(entry);
  return entry;
}

/**
 * Writes the start stamp for `entry`, a bundle the full check has just found current: `inputs` are its
 * manifest's ([path relative to root, size, mtimeMs, …]), `keySources` the files that compute the key.
 * Best effort: without a stamp every start runs the full check, as before.
 * @param {{ root: string, dir: string, entry: string, inputs: Array<[string, number, number, ...unknown[]]>, keySources: string[] }} at
 */
function writeStamp({ root, dir, entry, inputs, keySources }) {
  const staging = join(dir, `.current-start-${process.pid}-${Date.now()}.json`);
  try {
    /** @type {Array<[string, number, number]>} */
    const files = keySources.map((path) => {
      const st = statSync(path);
      return [path, st.size, st.mtimeMs];
    });
    for (const [rel, size, mtimeMs] of inputs) files.push([root + rel, size, mtimeMs]);
    /** @type {Stamp} */
    const stamp = { v: STAMP_VERSION, root, node: process.versions.node, bundle: dirname(entry).slice(dir.length + 1), main: 'main.cjs', files };
    if (dirname(dirname(entry)) !== dir || !BUNDLE_NAME.test(stamp.bundle) || !entry.endsWith(`${sep}main.cjs`)) return;
    writeFileSync(staging, JSON.stringify(stamp));
    renameSync(staging, join(dir, STAMP));
  } catch {
    try {
      rmSync(staging, { force: true });
    } catch {
      // Nothing was written, then.
    }
  }
}

/** @typedef {{ main(argv: string[]): Promise<number>, oneCommandProcess(): void, COMMANDS: Record<string, unknown> }} CliModule */

/**
 * The CLI module of `parley <argv[0]>` from the bundles beside `mainBundle` (the light one for its commands,
 * the whole CLI's if that fails), or undefined if none loads (the caller runs the sources).
 * @param {string} mainBundle
 * @param {string[]} argv
 * @returns {CliModule | undefined}
 */
function loadCli(mainBundle, argv) {
  for (const bundle of new Set([bundleFor(mainBundle, argv[0]), mainBundle])) {
    try {
      if (process.env.PARLEY_DEBUG) {
        // Node's own loader, which maps stack traces through the bundle's source map (a vm.Script's are not).
        process.setSourceMapsEnabled(true);
        return /** @type {CliModule} */ (require(bundle));
      }
      // The code cache is the command's (`parley --help`, `--version`: `top`).
      const key = argv[0] && !argv[0].startsWith('-') ? argv[0] : 'top';
      const known = (/** @type {Record<string, unknown>} */ mod, /** @type {string} */ k) => k === 'top' || Object.hasOwn(/** @type {CliModule} */ (mod).COMMANDS, k);
      return /** @type {CliModule} */ (require('./cli-code-cache.js').loadWithCodeCache(bundle, key, known));
    } catch (err) {
      // A bundle removed or damaged under us: the whole CLI's, else the sources, still run.
      if (process.env.PARLEY_DEBUG) console.error(`parley: bundle ${bundle} did not load (${err}); running ${bundle === mainBundle ? 'the sources' : mainBundle}`);
    }
  }
  return undefined;
}

module.exports = { PACKAGE_ROOT, cliCacheDir, LIGHT_COMMANDS, bundleFor, stampedBundle, writeStamp, loadCli };
