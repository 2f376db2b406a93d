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
 * file a bundle newly imports can only appear through an edit of a file already on the list. Files under
 * node_modules are not listed one by one (the LLM SDKs alone are over a thousand files to check on every
 * command): a dependency changes only through an install, which rewrites its package.json (listed, one per
 * bundled package, wherever the install put it: hoisted beside parley in an installed package, where no lock
 * file is under parley's own root). The build options and Node's version are part of the key. Every write
 * is a rename, so concurrent users see the old bundle or the new one, never half of one; a bundle's
 * directory is named by what it was built from and holds that list (BUILT_FROM), so a directory of the same
 * name is reused only when it says the same. Code in a bundle must find shipped files through the package
 * root (disk/package-root.ts), never through its own location.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUNDLE_PLUGINS } from './bundle-plugins.js';
import { markUsed } from './bundle-use.cjs';
import { dependencyManifest, inputEntry, sha1 } from './bundle-inputs.js';
import { BUILT_FROM, place } from './bundle-place.js';

export { BUNDLE_PLUGINS, zodLocalesEnglishOnly } from './bundle-plugins.js';
export { markUsed };
export { dependencyManifest };

/** Bumped when the cache's layout changes, so an old entry is never taken for a new one. */
const FORMAT = 10;

/**
 * node:crypto is loaded when a hash is needed (a build, a touched input), not by every check of a current
 * bundle: loading it was ~7 ms of CPU, a fifth of what every `parley` command paid before its own code.
 */
const nodeRequire = createRequire(import.meta.url);
const crypto = () => /** @type {typeof import('node:crypto')} */ (nodeRequire('node:crypto'));

/** A name no other writer in this directory uses at the same time. */
const uniqueSuffix = () => `${process.pid}-${crypto().randomBytes(4).toString('hex')}`;

/**
 * A bundle unused this long is removed when another is built. "Used" is refreshed at most hourly by every
 * use (markUsed, disk/bundle-use.cjs), including a long-lived process forking agents from it, so a running
 * `serve` or worker never loses the bundle it loads chunks and agent processes from.
 */
const KEEP_UNUSED_MS = 7 * 24 * 3600 * 1000;

/** Left by a build that was killed: removed after this long. */
const KEEP_STAGING_MS = 3600 * 1000;

/**
 * Files that decide how esbuild resolves and compiles, beside the ones it reads: the package's imports map,
 * the lock files of a clone (the project's, and the one npm writes into node_modules on every install; an
 * installed parley has neither under its root, so each bundled package's own package.json is tracked too:
 * dependencyManifest), the TypeScript config, and the plugins every bundle is built with
 * (BUNDLE_PLUGINS, the barrels' flattening): they rewrite what a bundle holds, and no agent bundle imports them,
 * so esbuild never lists them (their keys are bumped by hand, which an edit can forget).
 */
const ALSO_TRACKED = ['package.json', 'package-lock.json', 'node_modules/.package-lock.json', 'tsconfig.json', 'disk/bundle-plugins.js'];

/** An input saved this close to a build may have changed while esbuild read it: such a build is not cached. */
const SETTLE_MS = 2_000;

const BUNDLE_NAME = /^b-[0-9a-f]{16}$/;

/** A dependency's file (covered by the lock files): under node_modules, or outside the root (hoisted). */
const isDependency = (/** @type {string} */ rel) => rel.startsWith('..') || /(^|[\\/])node_modules[\\/]/.test(rel);

/**
 * Packages left outside every bundle, imported from node_modules at run time; everything else a bundle
 * imports is inlined, because Node 20 resolves and compiles an ES module graph file by file (zod alone is
 * ~95 files, the Mistral SDK hundreds) and that was most of a command's start-up. Each one here has its
 * reason: esbuild (runs its own binary, found from its package), bullmq (reads its Lua scripts from its
 * own folder) and ioredis with it (one client class for both), gpt-tokenizer (megabytes of encoding
 * tables, imported only by the export and token estimates), tsx (the fallback loader), playwright-core
 * (tools only), and optional add-ons the bundled packages try to load and do without: ws's native
 * helpers, the Mistral SDK's OpenTelemetry hooks.
 */
export const KEEP_EXTERNAL = Object.freeze([
  'esbuild',
  'bullmq',
  'ioredis',
  'gpt-tokenizer',
  'gpt-tokenizer/*',
  'tsx',
  'tsx/*',
  'playwright-core',
  'bufferutil',
  'utf-8-validate',
  '@opentelemetry/api',
]);

/**
 * The esbuild options every bundle of this package shares (the CLI's and the agent processes'): ES modules
 * for Node 20, split into chunks loaded on demand (a CLI command, the LLM SDKs), dependencies inlined but
 * KEEP_EXTERNAL. A bundle adds only what is its own (the CLI: source maps).
 */
export const NODE_BUNDLE_OPTIONS = Object.freeze({
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: [...KEEP_EXTERNAL],
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunk-[hash]',
  legalComments: 'none',
  // CommonJS code inlined into an ES module bundle (ws, engine.io) still calls `require` for Node built-ins.
  banner: { js: "import { createRequire as __parleyCreateRequire } from 'node:module'; const require = __parleyCreateRequire(import.meta.url);" },
});

/**
 * @typedef {{ root: string, dir: string, entryPoints: Record<string, string>, main: string, options: Record<string, unknown>, plugins?: Array<{ plugin: import('esbuild').Plugin, key: string, reads?: (root: string) => string[] }> }} BundleSpec
 * root: the package root (esbuild's working directory; manifest paths are relative to it); dir: this
 * bundle's cache directory; entryPoints: esbuild's, by output name; main: the output file to return
 * (e.g. `main.mjs`); options: every other esbuild option (JSON-serialisable: it is part of the key);
 * plugins: esbuild plugins of this bundle only, after BUNDLE_PLUGINS, each with a `key` that changes
 * whenever what it produces does (part of the cache key; esbuild refuses unknown fields in a plugin), and
 * `reads`: the files (relative to root) it reads by itself to decide what it writes, tracked as inputs are
 * (esbuild's metafile lists only the modules it loaded).
 *
 * @typedef {{ format: number, key: string, bundle: string, inputs: Array<[string, number, number, string]> }} Manifest
 * inputs: [path relative to root, size, mtimeMs, sha1]
 */

/**
 * What a bundle is built with, as the manifest keeps it: the text itself (a few KB), compared as it is, so
 * that checking a current bundle needs no hash.
 * @param {BundleSpec} spec
 */
const keyOf = (spec) =>
  JSON.stringify([FORMAT, process.versions.node, esbuildVersion(), spec.entryPoints, spec.main, spec.options, ...(spec.plugins ?? []).map((p) => [p.plugin.name, p.key])]);

/** The esbuild that would build: a new version may compile the same sources differently. */
function esbuildVersion() {
  try {
    return JSON.parse(readFileSync(nodeRequire.resolve('esbuild/package.json'), 'utf8')).version;
  } catch {
    return null;
  }
}

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
  if (!m || m.format !== FORMAT || m.key !== keyOf(spec) || !Array.isArray(m.inputs) || typeof m.bundle !== 'string' || !BUNDLE_NAME.test(m.bundle)) return null;
  let touched = false;
  // Paths as the build wrote them (relative(), normalised): prefixed, not join()ed, ~3 ms less over ~540 inputs.
  const base = spec.root.endsWith(sep) ? spec.root : spec.root + sep;
  for (const input of m.inputs) {
    // A damaged entry means "rebuild", never an error that would leave every later use on the slow path.
    if (!Array.isArray(input) || typeof input[0] !== 'string' || typeof input[1] !== 'number' || typeof input[2] !== 'number' || typeof input[3] !== 'string') return null;
    const [rel, size, mtimeMs, hash] = input;
    const path = base + rel;
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
  markUsed(entry);
  if (touched) {
    try {
      writeManifest(spec.dir, m);
    } catch {
      // A read-only cache: the bundle is still right; later uses just hash those files again.
    }
  }
  return entry;
}

/** Builds of this process in esbuild's service now: the last one to finish stops it (frees its process). */
let buildsInFlight = 0;

/**
 * @param {BundleSpec} spec
 * @returns {Promise<string>}
 */
async function build(spec) {
  const started = Date.now();
  const esbuild = await import('esbuild');
  mkdirSync(spec.dir, { recursive: true });
  const staging = join(spec.dir, `.staging-${uniqueSuffix()}`);
  try {
    /** @type {import('esbuild').BuildResult<{ metafile: true }>} */
    let result;
    buildsInFlight += 1;
    try {
      result = await esbuild.build({
        ...spec.options,
        absWorkingDir: spec.root,
        entryPoints: spec.entryPoints,
        outdir: staging,
        metafile: true,
        write: true,
        logLevel: 'silent',
        plugins: [...BUNDLE_PLUGINS, ...(spec.plugins ?? []).map((p) => p.plugin)],
      });
    } finally {
      // esbuild's service is one per process: stopped under a concurrent build, that build never settles.
      if (--buildsInFlight === 0) void esbuild.stop();
    }
    if (!existsSync(join(staging, spec.main))) throw new Error(`esbuild produced no ${spec.main}`);
    const tracked = ALSO_TRACKED.filter((f) => existsSync(join(spec.root, f)));
    // A plugin's generated module (`namespace:name`) is no file: what it holds is in the plugin's key.
    const read = Object.keys(result.metafile.inputs)
      .filter((p) => !/^[a-z][\w-]*:/.test(p))
      .map((p) => relative(spec.root, join(spec.root, p)));
    const pluginReads = (spec.plugins ?? []).flatMap((p) => p.reads?.(spec.root) ?? []).filter((f) => existsSync(join(spec.root, f)));
    const manifests = read.filter(isDependency).map((rel) => dependencyManifest(spec.root, rel));
    /** @type {Manifest['inputs']} */
    const inputs = [...new Set([...read.filter((rel) => !isDependency(rel)), ...tracked, ...pluginReads, ...manifests])]
      .filter((rel) => rel !== null && existsSync(join(spec.root, rel)))
      .sort()
      .map((rel) => inputEntry(spec.root, /** @type {string} */ (rel)));
    // The hashes above were taken after esbuild read the files: if one was saved during the build (or just
    // before it, on a file system with coarse times), they may describe text the bundle does not hold.
    const settled = inputs.every((i) => i[2] < started - SETTLE_MS);
    const key = keyOf(spec);
    const builtFrom = JSON.stringify({ key, inputs: inputs.map((i) => [i[0], i[3]]) });
    // Named by what it was built from; unsettled, by nothing (a name of its own): its list may not be what it holds.
    const bundle = `b-${settled ? crypto().createHash('sha256').update(builtFrom).digest('hex').slice(0, 16) : crypto().randomBytes(8).toString('hex')}`;
    writeFileSync(join(staging, BUILT_FROM), builtFrom);
    const target = join(spec.dir, bundle);
    place(staging, target, builtFrom, spec.main, join(spec.dir, `.staging-${uniqueSuffix()}`));
    // Unsettled: this use runs the bundle, and the next one builds again rather than trust the manifest.
    if (settled) writeManifest(spec.dir, { format: FORMAT, key, bundle, inputs });
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
  const tmp = join(dir, `.current-${uniqueSuffix()}.json`);
  writeFileSync(tmp, JSON.stringify(manifest));
  renameSync(tmp, join(dir, 'current.json'));
}

/** What a build writes aside before renaming it into place (staging output, a manifest, a snapshot blob). */
const STAGING_NAME = /^\.(staging|current)-/;

/**
 * Removes bundles other than `keep` unused for a week, and what killed builds left, so edits do not fill the disk.
 * @param {string} dir
 * @param {string} keep
 */
function prune(dir, keep) {
  for (const name of readdirSync(dir)) {
    const keepFor = BUNDLE_NAME.test(name) ? (name === keep ? null : KEEP_UNUSED_MS) : STAGING_NAME.test(name) ? KEEP_STAGING_MS : null;
    if (keepFor !== null) removeIfOlder(join(dir, name), keepFor);
  }
}

/**
 * Removes from `dir` what killed builds left (files or directories named `.staging-…` or `.current-…`) once it is
 * an hour old. Never one a build still writes: every build here finishes within minutes (esbuild; a snapshot blob's
 * build and first start have timeouts of 60 and 30 s), and what it writes aside is named by its process and a
 * random part, so concurrent builds never share it. Writers into a bundle's own directory (worker-snapshot.ts)
 * call this for it, since `prune` only looks at a cache directory's top level.
 * @param {string} dir
 */
export function pruneStaging(dir) {
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) if (STAGING_NAME.test(name)) removeIfOlder(join(dir, name), KEEP_STAGING_MS);
}

/**
 * @param {string} path
 * @param {number} ms
 */
function removeIfOlder(path, ms) {
  try {
    if (Date.now() - statSync(path).mtimeMs > ms) rmSync(path, { recursive: true, force: true });
  } catch {
    // Another use pruned it first, or a read-only cache.
  }
}

/**
 * The inputs of the manifest in `dir` ([path relative to the root, size, mtimeMs, sha1]) if it describes the
 * bundle whose file `entry` is (one cachedBundle just returned), else null (another process built since).
 * @param {string} dir
 * @param {string} entry
 * @returns {Manifest['inputs'] | null}
 */
export function inputsOf(dir, entry) {
  try {
    const m = JSON.parse(readFileSync(join(dir, 'current.json'), 'utf8'));
    return m && m.format === FORMAT && typeof m.bundle === 'string' && join(dir, m.bundle) === dirname(entry) && Array.isArray(m.inputs) ? m.inputs : null;
  } catch {
    return null;
  }
}

/**
 * The files whose text decides a bundle's key (keyOf) besides a caller's own options: this module, its
 * plugins' and esbuild's package.json. A caller that trusts a bundle without computing its key (bin/cli-start.js)
 * checks these are unchanged, and its own module, instead.
 * @returns {string[]}
 */
export function keySources() {
  const here = fileURLToPath(import.meta.url);
  return [here, join(dirname(here), 'bundle-plugins.js'), nodeRequire.resolve('esbuild/package.json')];
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
