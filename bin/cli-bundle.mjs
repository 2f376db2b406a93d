// @ts-check
/**
 * The CLI as one pre-built JavaScript bundle (disk/bundle-cache.js: esbuild, cached, rebuilt when a
 * file it was built from changes).
 *
 * Why: under the tsx loader every `parley` command paid ~0.6 s of CPU before doing anything (Node 20 runs
 * tsx's module hooks in a second thread, and each of the CLI's ~400 files crosses it); the same code
 * bundled starts in a third of that. Researchers call the CLI in loops; the test suite, hundreds of times.
 * Dependencies are bundled too, except the few in KEEP_EXTERNAL (disk/bundle-cache.js, with reasons): in
 * Node 20 every file of an ES module graph is resolved and compiled one by one, and zod, yaml and ws alone
 * were ~220 of the ~320 files `parley run` loaded before doing anything.
 *
 * One CommonJS file, not ES module chunks as the agent processes' bundle: bin/cli-code-cache.js runs it
 * with a V8 code cache, which Node 20 gives only to scripts (vm.Script). Commands are still evaluated only
 * when called: esbuild wraps every module reached through a dynamic import() in a function run at its first
 * import. Whitespace and comments are left out: a quarter less to read at every start, and no comment
 * that makes the whole source a two-byte string; PARLEY_DEBUG maps stack traces through the source map.
 *
 * Nothing here may stop the CLI: any failure (no esbuild, a read-only cache) returns null and the caller
 * runs the sources under tsx, as before. PARLEY_CLI_BUNDLE=0 forces that (read by bin/parley.js). A start
 * whose bundle is current does not load this module: the stamp written here is checked instead (bin/cli-start.js).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cachedBundle, inputsOf, keySources, NODE_BUNDLE_OPTIONS } from '../disk/bundle-cache.js';
import { FLATTENED_BARRELS_PLUGIN } from '../disk/bundle-plugins.js';
import { cliRuntimeEntryPoints, cliRuntimePackages, isRuntimeEntry } from '../disk/cli-runtime-packages.js';
import { cliCacheDir, PACKAGE_ROOT, writeStamp } from './cli-start.js';

// The package root, the cache's directory and the light bundle's commands are bin/cli-start.js's (CommonJS:
// the start of a process whose bundle is current reads them without this module).
export { bundleFor, cliCacheDir, LIGHT_COMMANDS, PACKAGE_ROOT } from './cli-start.js';

/**
 * The shared options (NODE_BUNDLE_OPTIONS) as one CommonJS script. `import.meta.url` is the bundle file's URL,
 * as it was each chunk's (packages are resolved from it; shipped files are found through the package root).
 * The banner's directive keeps the whole file strict, as ES modules are. Dynamic imports of the packages
 * left outside (esbuild, ioredis, gpt-tokenizer) become require(): a vm.Script has no ES module loader.
 */
export const CLI_BUNDLE_OPTIONS = Object.freeze({
  ...NODE_BUNDLE_OPTIONS,
  splitting: false,
  format: 'cjs',
  outExtension: { '.js': '.cjs' },
  banner: { js: '"use strict";const __parleyImportMetaUrl=require("node:url").pathToFileURL(__filename).href;' },
  define: { 'import.meta.url': '__parleyImportMetaUrl' },
  supported: { 'dynamic-import': false },
  minifyWhitespace: true,
  // Stack traces under PARLEY_DEBUG point at the sources (bin/parley.js turns source maps on then).
  sourcemap: 'linked',
  sourcesContent: false,
});

/** The CLI bundle's own plugins (disk/bundle-plugins.js), with their cache keys and the files they read. */
const CLI_PLUGINS = [FLATTENED_BARRELS_PLUGIN, { plugin: cliRuntimePackages.plugin, key: cliRuntimePackages.key }];

/**
 * The bundles of the CLI: output name -> entry (relative to the package root), and the packages kept in files
 * of their own beside them (disk/cli-runtime-packages.js: `mistral.cjs`, generated entries).
 */
const CLI_ENTRIES = Object.freeze({ main: 'cli/main.ts', light: 'cli/light-main.ts', ...cliRuntimeEntryPoints() });

/**
 * The bundles of `<root>/cli/main.ts` (and of the other `entries`, beside it) cached in `dir`; returns main's
 * file. Exported for tests, which use a package of their own.
 * @param {string} root
 * @param {string} dir
 * @param {Readonly<Record<string, string>>} [entries]
 * @returns {Promise<string>}
 */
export function bundleOf(root, dir, entries = CLI_ENTRIES) {
  const entryPoints = Object.fromEntries(Object.entries(entries).map(([name, rel]) => [name, isRuntimeEntry(rel) ? rel : join(root, rel)]));
  return cachedBundle({ root, dir, entryPoints, main: 'main.cjs', options: CLI_BUNDLE_OPTIONS, plugins: CLI_PLUGINS });
}

/**
 * The entry file of an up-to-date CLI bundle (built now if needed), or null when the CLI should run
 * from its sources under tsx.
 * @returns {Promise<string | null>}
 */
export async function cliBundle() {
  try {
    const dir = cliCacheDir();
    const entry = await bundleOf(PACKAGE_ROOT, dir);
    // Found current (or built and settled) just now: the next start checks the stamp alone (bin/cli-start.js).
    const inputs = inputsOf(dir, entry);
    if (inputs) writeStamp({ root: PACKAGE_ROOT, dir, entry, inputs, keySources: [fileURLToPath(import.meta.url), fileURLToPath(new URL('../disk/cli-runtime-packages.js', import.meta.url)), ...keySources()] });
    return entry;
  } catch {
    return null;
  }
}
