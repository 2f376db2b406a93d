// @ts-check
/**
 * esbuild bundles of this package's TypeScript, kept in a build cache and rebuilt only when a file they
 * were built from changes. Plain JavaScript because bin/parley.js uses it before any TypeScript loader
 * runs; the agent process bundle (orchestrator/supervisor/worker-bundle.ts) uses it too.
 *
 * Why a cache and not a build per use: a build costs 0.2–0.5 s of CPU (esbuild's process and threads),
 * paid by every CLI command and every run's agent pool; checking that a bundle is current costs ~10 ms.
 *
 * How it stays correct: beside each bundle directory the cache keeps a manifest (current.json) of every
 * file esbuild read (its metafile) with size, mtime and sha1. A use checks that list: equal size and
 * mtime is taken as unchanged, a different mtime is settled by the content, anything else rebuilds. A
 * file a bundle newly imports can only appear through an edit of a file already on the list. The build
 * options and Node's version are part of the key. Every write is a rename, so concurrent users see the
 * old bundle or the new one, never half of one. Code in a bundle must find shipped files through the
 * package root (disk/package-root.ts), never through its own location.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Bumped when the cache's layout changes, so an old entry is never taken for a new one. */
const FORMAT = 2;

/** A day: a long-lived process (serve, a worker) started from an older bundle may still load its chunks. */
const KEEP_OLD_MS = 24 * 3600 * 1000;

const BUNDLE_NAME = /^b-[0-9a-f]{16}$/;

/** @param {string} path */
const sha1 = (path) => createHash('sha1').update(readFileSync(path)).digest('hex');

/**
 * @typedef {{ root: string, dir: string, entryPoints: Record<string, string>, main: string, options: Record<string, unknown> }} BundleSpec
 * root: the package root (esbuild's working directory; manifest paths are relative to it); dir: this
 * bundle's cache directory; entryPoints: esbuild's, by output name; main: the output file to return
 * (e.g. `main.mjs`); options: every other esbuild option (JSON-serialisable: it is part of the key).
 *
 * @typedef {{ format: number, key: string, bundle: string, inputs: Array<[string, number, number, string]> }} Manifest
 * inputs: [path relative to root, size, mtimeMs, sha1]
 */

/** @param {BundleSpec} spec */
const keyOf = (spec) => createHash('sha256').update(JSON.stringify([FORMAT, process.versions.node, spec.entryPoints, spec.main, spec.options])).digest('hex');

/**
 * The path of `spec.main` in an up-to-date bundle: the cached one, else a new build. Throws when it
 * cannot build (no esbuild, a cache that cannot be written); callers fall back to the sources.
 * @param {BundleSpec} spec
 * @returns {Promise<string>}
 */
export async function cachedBundle(spec) {
  return current(spec) ?? (await build(spec));
}

/**
 * @param {BundleSpec} spec
 * @returns {string | null}
 */
function current(spec) {
  /** @type {Manifest} */
  let m;
  try {
    m = JSON.parse(readFileSync(join(spec.dir, 'current.json'), 'utf8'));
  } catch {
    return null;
  }
  if (m.format !== FORMAT || m.key !== keyOf(spec) || !Array.isArray(m.inputs) || typeof m.bundle !== 'string' || !BUNDLE_NAME.test(m.bundle)) return null;
  let touched = false;
  for (const input of m.inputs) {
    const [rel, size, mtimeMs, hash] = input;
    const path = join(spec.root, rel);
    let st;
    try {
      st = statSync(path);
    } catch {
      return null;
    }
    if (st.size !== size) return null;
    if (st.mtimeMs !== mtimeMs) {
      if (sha1(path) !== hash) return null;
      input[2] = st.mtimeMs; // touched, not changed (a checkout): remembered so later uses skip the hash
      touched = true;
    }
  }
  const entry = join(spec.dir, m.bundle, spec.main);
  if (!existsSync(entry)) return null;
  if (touched) {
    try {
      writeManifest(spec.dir, m);
    } catch {
      // A read-only cache: the bundle is still right; later uses just hash those files again.
    }
  }
  return entry;
}

/**
 * @param {BundleSpec} spec
 * @returns {Promise<string>}
 */
async function build(spec) {
  const esbuild = await import('esbuild');
  mkdirSync(spec.dir, { recursive: true });
  const staging = join(spec.dir, `.staging-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    const result = await esbuild.build({
      ...spec.options,
      absWorkingDir: spec.root,
      entryPoints: spec.entryPoints,
      outdir: staging,
      metafile: true,
      write: true,
      logLevel: 'silent',
    });
    void esbuild.stop();
    if (!existsSync(join(staging, spec.main))) throw new Error(`esbuild produced no ${spec.main}`);
    /** @type {Manifest['inputs']} */
    const inputs = Object.keys(result.metafile.inputs)
      .map((p) => relative(spec.root, join(spec.root, p)))
      .sort()
      .map((rel) => {
        const path = join(spec.root, rel);
        const st = statSync(path);
        return [rel, st.size, st.mtimeMs, sha1(path)];
      });
    const key = keyOf(spec);
    const bundle = `b-${createHash('sha256').update(key).update(JSON.stringify(inputs.map((i) => [i[0], i[3]]))).digest('hex').slice(0, 16)}`;
    const target = join(spec.dir, bundle);
    if (!existsSync(join(target, spec.main))) {
      try {
        renameSync(staging, target);
      } catch (err) {
        if (!existsSync(join(target, spec.main))) throw err; // else a concurrent use built the same bundle first
      }
    }
    writeManifest(spec.dir, { format: FORMAT, key, bundle, inputs });
    prune(spec.dir, bundle);
    return join(target, spec.main);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * current.json written aside and renamed: a concurrent use reads the old manifest or the new one.
 * @param {string} dir
 * @param {Manifest} manifest
 */
function writeManifest(dir, manifest) {
  const tmp = join(dir, `.current-${process.pid}-${randomBytes(4).toString('hex')}.json`);
  writeFileSync(tmp, JSON.stringify(manifest));
  renameSync(tmp, join(dir, 'current.json'));
}

/**
 * Removes bundles other than `keep` untouched for a day, so edits do not fill the disk.
 * @param {string} dir
 * @param {string} keep
 */
function prune(dir, keep) {
  for (const name of readdirSync(dir)) {
    if (!BUNDLE_NAME.test(name) || name === keep) continue;
    try {
      if (Date.now() - statSync(join(dir, name)).mtimeMs > KEEP_OLD_MS) rmSync(join(dir, name), { recursive: true, force: true });
    } catch {
      // Another use pruned it first.
    }
  }
}

/**
 * The files the current bundle in `dir` was built from, relative to its root (for tests and tools), or null.
 * @param {string} dir
 * @returns {string[] | null}
 */
export function bundleInputs(dir) {
  try {
    const m = JSON.parse(readFileSync(join(dir, 'current.json'), 'utf8'));
    return Array.isArray(m.inputs) ? m.inputs.map((/** @type {[string]} */ i) => i[0]) : null;
  } catch {
    return null;
  }
}
