// @ts-check
/**
 * The CLI as one pre-built JavaScript bundle, kept in a build cache and rebuilt when a source changes.
 *
 * Why: under the tsx loader every `parley` command paid ~0.6 s of CPU before doing anything (Node 20 runs
 * tsx's module hooks in a second thread, and every one of the CLI's ~400 files crosses it); the same
 * code bundled by esbuild (a declared, pinned dependency) starts in a third of that. Researchers call the
 * CLI in loops and the test suite calls it hundreds of times.
 *
 * How it stays correct: the cache keeps, beside the bundle, the list of every source file esbuild read
 * (its metafile) with each file's size, mtime and sha1. A start checks that list: equal size and mtime
 * is taken as unchanged, a different mtime is settled by the file's content, anything else rebuilds. A
 * file the CLI newly imports can only appear through an edit of a file already on the list. Packages
 * stay external (resolved from node_modules as usual), so a dependency upgrade needs no rebuild. Files
 * the code reads at run time (prompt templates, prices, web pages) are found through the package root
 * declared in PARLEY_PACKAGE_ROOT (disk/package-root.ts), never through the bundle's own location.
 *
 * Nothing here is allowed to stop the CLI: any failure (no esbuild, a read-only cache) returns null and
 * the caller runs the sources under tsx, as before. PARLEY_CLI_BUNDLE=0 forces that.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root: bin/ sits at it. */
export const PACKAGE_ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Bumped when the build options below change, so an old cache entry is never taken for a new one. */
const FORMAT = 1;

/** `<node_modules>/.cache/parley/cli`, next to the esbuild this package depends on. */
function cacheDir() {
  const esbuildPkg = createRequire(import.meta.url).resolve('esbuild/package.json');
  return join(dirname(dirname(esbuildPkg)), '.cache', 'parley', 'cli');
}

/** @param {string} path */
const sha1 = (path) => createHash('sha1').update(readFileSync(path)).digest('hex');

/**
 * @typedef {{ format: number, node: string, bundle: string, inputs: Array<[string, number, number, string]> }} Manifest
 * inputs: [path relative to the package root, size, mtimeMs, sha1]
 */

/**
 * @param {string} root the package root
 * @param {string} dir the cache directory
 * @returns {string | null} the bundle's entry file when the manifest still describes the sources
 */
function current(root, dir) {
  /** @type {Manifest} */
  let m;
  try {
    m = JSON.parse(readFileSync(join(dir, 'current.json'), 'utf8'));
  } catch {
    return null;
  }
  if (m.format !== FORMAT || m.node !== process.versions.node || !Array.isArray(m.inputs) || typeof m.bundle !== 'string') return null;
  if (!/^cli-[0-9a-f]{16}$/.test(m.bundle)) return null;
  let touched = false;
  for (const input of m.inputs) {
    const [rel, size, mtimeMs, hash] = input;
    const path = join(root, rel);
    let st;
    try {
      st = statSync(path);
    } catch {
      return null;
    }
    if (st.size !== size) return null;
    if (st.mtimeMs !== mtimeMs) {
      if (sha1(path) !== hash) return null;
      input[2] = st.mtimeMs; // touched, not changed (a checkout): remembered so later starts skip the hash
      touched = true;
    }
  }
  const entry = join(dir, m.bundle, 'main.mjs');
  if (!existsSync(entry)) return null;
  if (touched) {
    try {
      writeManifest(dir, m);
    } catch {
      // A read-only cache: the bundle is still right, later starts just hash those files again.
    }
  }
  return entry;
}

/**
 * current.json written aside and renamed: a concurrent start reads the old manifest or the new one.
 * @param {string} dir
 * @param {Manifest} manifest
 */
function writeManifest(dir, manifest) {
  const tmp = join(dir, `.current-${process.pid}-${randomBytes(4).toString('hex')}.json`);
  writeFileSync(tmp, JSON.stringify(manifest));
  renameSync(tmp, join(dir, 'current.json'));
}

/**
 * Builds the bundle into a fresh directory named by its inputs' hash, then points current.json at it.
 * Both steps are a rename, so a concurrent start sees the old bundle or the new one, never half of one.
 * @param {string} root the package root
 * @param {string} dir the cache directory
 * @returns {Promise<string>}
 */
async function build(root, dir) {
  const esbuild = await import('esbuild');
  mkdirSync(dir, { recursive: true });
  const staging = join(dir, `.staging-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    const result = await esbuild.build({
      absWorkingDir: root,
      entryPoints: { main: join(root, 'cli', 'main.ts') },
      bundle: true,
      // One chunk per command (they are loaded on demand, cli/main.ts), so `parley agent` loads no orchestrator.
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      packages: 'external',
      outdir: staging,
      outExtension: { '.js': '.mjs' },
      chunkNames: 'chunk-[hash]',
      // Stack traces under PARLEY_DEBUG point at the sources (bin/parley.js turns source maps on then).
      sourcemap: 'linked',
      sourcesContent: false,
      metafile: true,
      logLevel: 'silent',
      legalComments: 'none',
      // CommonJS packages inlined by name resolution still `require` Node built-ins: give ESM a real one.
      banner: { js: "import { createRequire as __parleyCreateRequire } from 'node:module'; const require = __parleyCreateRequire(import.meta.url);" },
    });
    void esbuild.stop();
    /** @type {Manifest['inputs']} */
    const inputs = Object.keys(result.metafile.inputs)
      .map((p) => relative(root, join(root, p)))
      .sort()
      .map((rel) => {
        const path = join(root, rel);
        const st = statSync(path);
        return [rel, st.size, st.mtimeMs, sha1(path)];
      });
    const id = createHash('sha256').update(JSON.stringify([FORMAT, process.versions.node, inputs.map((i) => [i[0], i[3]])])).digest('hex').slice(0, 16);
    const bundle = `cli-${id}`;
    const target = join(dir, bundle);
    if (!existsSync(join(target, 'main.mjs'))) {
      try {
        renameSync(staging, target);
      } catch (err) {
        if (!existsSync(join(target, 'main.mjs'))) throw err; // else another start built the same bundle first
      }
    }
    /** @type {Manifest} */
    const manifest = { format: FORMAT, node: process.versions.node, bundle, inputs };
    writeManifest(dir, manifest);
    prune(dir, bundle);
    return join(target, 'main.mjs');
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** A day: a long-lived command (serve, a worker) started from an older bundle may still load its chunks. */
const KEEP_OLD_MS = 24 * 3600 * 1000;

/**
 * Removes bundles other than `keep` untouched for a day, so edits do not fill the disk.
 * @param {string} dir
 * @param {string} keep
 */
function prune(dir, keep) {
  for (const name of readdirSync(dir)) {
    if (!/^cli-[0-9a-f]{16}$/.test(name) || name === keep) continue;
    try {
      if (Date.now() - statSync(join(dir, name)).mtimeMs > KEEP_OLD_MS) rmSync(join(dir, name), { recursive: true, force: true });
    } catch {
      // Another start pruned it first.
    }
  }
}

/**
 * The entry file of an up-to-date CLI bundle (built now if needed), or null when the CLI should run
 * from its sources under tsx.
 * @returns {Promise<string | null>}
 */
export async function cliBundle() {
  if (process.env.PARLEY_CLI_BUNDLE === '0') return null;
  try {
    return await bundleOf(PACKAGE_ROOT, cacheDir());
  } catch {
    return null;
  }
}

/**
 * The bundle of `<root>/cli/main.ts` cached in `dir`: the current one, else a new build. Throws when it
 * cannot build (the caller falls back to the sources). Exported for tests, which use a package of their own.
 * @param {string} root
 * @param {string} dir
 * @returns {Promise<string>}
 */
export async function bundleOf(root, dir) {
  return current(root, dir) ?? (await build(root, dir));
}
