// @ts-check
/**
 * Runs the CLI bundle (one CommonJS file, bin/cli-bundle.mjs) with a V8 code cache kept beside it.
 *
 * Why: Node 20 compiles every module at every start (it has no compile cache switch), and compiling was a
 * third of a command's start-up: a refused `parley run` spent ~0.1 s of its ~0.3 s of CPU compiling the
 * ~60 modules it loaded. vm.Script takes V8's code cache (`cachedData`); ES modules cannot, in Node 20,
 * without an experimental flag, which is why the bundle is CommonJS.
 *
 * One cache per bundle and command (`code-main-run.v8`, …): a cache holds every function its process compiled, so a
 * `run`'s would make `--help` deserialise code it never calls. It is written when the process exits, so it
 * holds the functions the command used, not only those of its start: by a process that found none, or one
 * V8 rejected (another Node version, other V8 flags), or one that worked (CPU after the bundle's load) well
 * over the time of the process that wrote it (WORK_RATIO): a `run --help` or a refused run compiles much
 * less than a run, and may come first. A writer that read the cache writes what it read and what it
 * compiled since, so a cache grows towards what the command's processes use; it is rewritten a few times
 * at most. It sits in the bundle's own directory, whose name is the hash of what the bundle was built
 * from: a rebuilt bundle never meets an old cache. Every write is a rename. Nothing here may stop the CLI:
 * a cache that cannot be read or written is only slower.
 */
'use strict';
// CommonJS (bin/package.json): bin/parley.js starts without Node's ES module loader (see there).
const { readFileSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const { isAscii } = require('node:buffer');
const { createRequire } = require('node:module');
const { crc32 } = require('node:zlib');
const { basename, dirname, join } = require('node:path');
const vm = require('node:vm');

/** A cache's name is built from the command's name, which a user types: only these may be part of a path. */
const KEY = /^[a-z][a-z0-9-]{0,31}$/;

/**
 * A process that worked this many times as long as its cache's writer, and WORK_SLACK_MS more, compiled more:
 * it writes the cache again. (The slack: a few ms either way is noise, not code.)
 */
const WORK_RATIO = 1.25;
const WORK_SLACK_MS = 20;

/**
 * A cache file: this header (the writer's CPU after the bundle's load, in ms; MAGIC_ASCII or MAGIC_TEXT; the
 * CRC-32 of the rest), then V8's data. The magic says whether the bundle beside it (never rewritten: its
 * directory is named by what it was built from) is pure ASCII, so a reader with a cache skips that scan of
 * every byte (~5 ms of 4.2 MB under load). The CRC is ours because V8 does not check its data in release
 * builds: a cache damaged in place (same length) crashed Node (SIGSEGV) in vm.Script, at every start, until
 * someone removed the file.
 * zlib's crc32 over ~2 MB is ~0.5 ms (loading zlib ~2.5 ms; a run loads it anyway, for ws).
 */
const HEADER_BYTES = 12;
const MAGIC_ASCII = 0x70763803;
const MAGIC_TEXT = 0x70763804;

/** @param {string} path @returns {{ data: Buffer, writerWorkMs: number, ascii: boolean } | null} */
function readCache(path) {
  try {
    const file = readFileSync(path);
    const magic = file.length > HEADER_BYTES ? file.readUInt32LE(4) : 0;
    if (magic !== MAGIC_ASCII && magic !== MAGIC_TEXT) return null;
    const data = file.subarray(HEADER_BYTES);
    if (crc32(data) !== file.readUInt32LE(8)) return null;
    return { data, writerWorkMs: file.readUInt32LE(0), ascii: magic === MAGIC_ASCII };
  } catch {
    return null;
  }
}

/** This process's CPU so far, in ms. */
function cpuMs() {
  const { user, system } = process.cpuUsage();
  return Math.round((user + system) / 1000);
}

/**
 * Evaluates the CommonJS bundle `file` and returns its exports; at exit, writes the code cache of `key`
 * when this process has a better one to give (see above). `isKnown(key)` (asked at exit, with the exports
 * loaded) keeps a mistyped command from leaving a cache file of its own.
 * @param {string} file
 * @param {string} key
 * @param {(exports: Record<string, unknown>, key: string) => boolean} isKnown
 * @returns {Record<string, unknown>}
 */
function loadWithCodeCache(file, key, isKnown) {
  const dir = dirname(file);
  const usable = KEY.test(key);
  // Beside the bundle, named by it and the command: `code-main-run.v8`, `code-light-show.v8`.
  const cachePath = join(dir, `code-${basename(file, '.cjs')}-${usable ? key : 'unused'}.v8`);
  const cache = usable ? readCache(cachePath) : null;
  const buffer = readFileSync(file);
  // Pure ASCII (esbuild escapes non-ASCII in strings; a regular expression may keep some) is read as a
  // one-byte string: a third of the CPU of decoding UTF-8, and half the memory.
  const ascii = cache ? cache.ascii : isAscii(buffer);
  const source = ascii ? buffer.latin1Slice(0, buffer.length) : buffer.utf8Slice(0, buffer.length);
  // The wrapper of Node's own CommonJS loader: the bundle sees the same five names it would under require(), and
  // `__parleyRuntime`, which loads a package kept beside it (disk/cli-runtime-packages.js) through this cache too.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname, __parleyRuntime) {${source}\n})`, {
    filename: file,
    ...(cache ? { cachedData: cache.data } : {}),
  });
  const loaded = cpuMs();
  const module = { exports: /** @type {Record<string, unknown>} */ ({}) };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dir, runtimeLoader(dir));
  const accepted = cache !== null && script.cachedDataRejected !== true;
  process.once('exit', () => {
    const work = cpuMs() - loaded;
    if (accepted && work <= cache.writerWorkMs * WORK_RATIO + WORK_SLACK_MS) return;
    if (!usable || !isKnown(module.exports, key)) return;
    const staging = `${cachePath}.${process.pid}-${Date.now()}`;
    try {
      const data = script.createCachedData();
      const header = Buffer.alloc(HEADER_BYTES);
      header.writeUInt32LE(Math.min(work, 0xffffffff), 0);
      header.writeUInt32LE(ascii ? MAGIC_ASCII : MAGIC_TEXT, 4);
      header.writeUInt32LE(crc32(data), 8);
      writeFileSync(staging, Buffer.concat([header, data]));
      renameSync(staging, cachePath);
    } catch {
      // A read-only cache, a full disk: the next process compiles again, no worse than without a cache.
      try {
        rmSync(staging, { force: true });
      } catch {
        // Nothing was written, then.
      }
    }
  });
  return module.exports;
}

/**
 * `__parleyRuntime(name)` of a bundle in `dir`: the exports of `<dir>/<name>.cjs`, loaded once per process, with
 * a code cache of its own (`code-<name>-runtime.v8`).
 * @param {string} dir
 */
function runtimeLoader(dir) {
  /** @type {Map<string, Record<string, unknown>>} */
  const loaded = new Map();
  return (/** @type {string} */ name) => {
    let exports = loaded.get(name);
    if (!exports) {
      if (!KEY.test(name)) throw new Error(`parley: no runtime file '${name}'`);
      exports = loadWithCodeCache(join(dir, `${name}.cjs`), 'runtime', () => true);
      loaded.set(name, exports);
    }
    return exports;
  };
}

exports.loadWithCodeCache = loadWithCodeCache;
