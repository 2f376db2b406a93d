// @ts-check
/**
 * Packages the CLI bundle keeps in files of their own beside main.cjs (`<name>.cjs`, one build, one manifest:
 * bin/cli-bundle.mjs), loaded at the first import of one of their modules (LAZY ones: at the first use of an
 * export). Why: every `parley` process reads its whole bundle, holds it as a string and deserialises a code
 * cache whose top level declares every module wrapper of it, whatever the command uses; the Mistral SDK was
 * 1.34 MB of main.cjs's 4.23 MB (its ~1,000 modules), used only by a `mistral:` judge, seat or job. In the
 * bundle, each of its specifiers is a module `module.exports = <the runtime file's exports>[<specifier>]`, so
 * every importer shares one copy of the package (the SDK's error classes, which llm/mistral-client.ts maps by `instanceof`).
 *
 * The runtime file is loaded through the code cache (bin/cli-code-cache.js passes `__parleyRuntime` to the
 * bundle), else by Node's `require` (PARLEY_DEBUG runs the bundle under Node's own loader). A specifier the
 * CLI imports that is not listed here fails the build, so the bundle never holds a second copy of a package;
 * a failed build runs the sources under tsx (bin/parley.js), which the CLI tests would show.
 * Agent processes started from the snapshot have their own list (RUNTIME_PACKAGES in
 * orchestrator/supervisor/snapshot-deferred.ts, which says why the two differ).
 */

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Runtime file name -> the package's specifiers the CLI's sources import (static or dynamic). */
export const CLI_RUNTIME_PACKAGES = Object.freeze({
  mistral: Object.freeze([
    '@mistralai/mistralai',
    '@mistralai/mistralai/core.js',
    '@mistralai/mistralai/funcs/chatComplete.js',
    '@mistralai/mistralai/funcs/chatStream.js',
    '@mistralai/mistralai/lib/http.js',
    '@mistralai/mistralai/lib/matchers.js',
    '@mistralai/mistralai/models/errors',
    '@mistralai/mistralai/models/components/chatcompletionresponse.js',
    '@mistralai/mistralai/models/errors/httpvalidationerror.js',
  ]),
  // The OpenAI SDK (0.19 MB): batch jobs, files, fine-tuning, streaming and its error classes; a seat's or a
  // judge's plain call goes on the light HTTP path (llm/openai-http.ts) without it.
  openai: Object.freeze(['openai']),
  // The browsers' server (0.45 MB with engine.io's transports, mime-db and a copy of ws): loaded by a run only
  // when a browser may come (orchestrator/run/episode-host.ts), by serve, watch, study, annotate.
  socketio: Object.freeze(['socket.io', 'engine.io', 'socket.io-parser']),
  // The shared rate limit's (llm/shared-limit.ts, `--rpm`/`--tpm` of a queue worker).
  'rate-limiter-flexible': Object.freeze(['rate-limiter-flexible']),
  // `parley pack` and `verify`'s archives (0.09 MB of the light bundle, which `show` and `report` start from).
  tar: Object.freeze(['tar']),
  // YAML files a user edits (experiment files, rubrics, studies, probes, claims: text/yaml.ts), 0.17 MB of main.cjs.
  // Loaded at the first use of one of its exports (LAZY): run, eval and fork import the rubric loader at their start.
  yaml: Object.freeze(['yaml']),
});

/**
 * Runtime files loaded at the first read of one of their exports rather than at the first import of their
 * package. Why: run, eval and fork import text/yaml.ts at their start (through the rubric loader), though they
 * parse YAML only for a file a user gives; loading yaml.cjs through its code cache was ~13 ms of CPU and 231 page
 * faults of each such process. The shim defines each export name of the package (read from it at build time) as
 * a getter: esbuild's CommonJS interop (`__toESM`) copies the names without reading them, and the bundle reads an
 * export where it uses it (`(0, import_yaml.parseDocument)(…)`).
 */
const LAZY = new Set(['yaml']);

/** Modules of those packages that stay in the bundle: a constant the light OpenAI client sends. */
const INLINE = new Set(['openai/version']);

const ENTRY_PREFIX = 'cli-runtime:';

/** The runtime files' esbuild entry points, by output name (generated modules: see the plugin). */
export const cliRuntimeEntryPoints = () => Object.fromEntries(Object.keys(CLI_RUNTIME_PACKAGES).map((name) => [name, `${ENTRY_PREFIX}${name}`]));

/** Whether an entry point of CLI_ENTRIES is a generated one (not a file under the package root). */
export const isRuntimeEntry = (/** @type {string} */ entry) => entry.startsWith(ENTRY_PREFIX);

/** The bundle's module for `specifier` of runtime file `name` (`__parleyRuntime`: bin/cli-code-cache.js). */
const shim = (/** @type {string} */ name, /** @type {string} */ specifier) =>
  `module.exports = (typeof __parleyRuntime === "function" ? __parleyRuntime : (n) => require(require("node:path").join(__dirname, n + ".cjs")))(${JSON.stringify(name)})[${JSON.stringify(specifier)}];\n`;

/** The same for a LAZY runtime file: `names` (the package's export names) as getters onto the file's exports, loaded at the first read. */
const lazyShim = (/** @type {string} */ name, /** @type {string} */ specifier, /** @type {string[]} */ names) =>
  `var loaded;\nconst load = () => loaded ??= (typeof __parleyRuntime === "function" ? __parleyRuntime : (n) => require(require("node:path").join(__dirname, n + ".cjs")))(${JSON.stringify(name)})[${JSON.stringify(specifier)}];\n` +
  `for (const key of ${JSON.stringify(names.filter((n) => n !== '__esModule'))}) Object.defineProperty(module.exports, key, { enumerable: true, get: () => load()[key] });\n` +
  (names.includes('__esModule') ? 'Object.defineProperty(module.exports, "__esModule", { value: true });\n' : '');

/** The runtime file's entry: `module.exports = { <specifier>: require(<specifier>), … }`. */
const entry = (/** @type {string} */ name) =>
  `module.exports = {\n${(CLI_RUNTIME_PACKAGES[/** @type {keyof typeof CLI_RUNTIME_PACKAGES} */ (name)] ?? []).map((s) => `  ${JSON.stringify(s)}: require(${JSON.stringify(s)}),`).join('\n')}\n};\n`;

const ESCAPE = /[.*+?^${}()|[\]\\/]/g;
const roots = [...new Set(Object.values(CLI_RUNTIME_PACKAGES).flatMap((specs) => specs.map((s) => /^(@[^/]+\/)?[^/]+/.exec(s)?.[0] ?? s)))];

/** @type {import('esbuild').Plugin} */
const plugin = {
  name: 'cli-runtime-packages',
  setup(build) {
    /** @type {Map<string, string>} */
    const owner = new Map(Object.entries(CLI_RUNTIME_PACKAGES).flatMap(([name, specs]) => specs.map((s) => /** @type {[string, string]} */ ([s, name]))));
    build.onResolve({ filter: /^cli-runtime:/ }, (a) => ({ path: a.path.slice(ENTRY_PREFIX.length), namespace: 'cli-runtime-entry' }));
    build.onLoad({ filter: /.*/, namespace: 'cli-runtime-entry' }, (a) => ({ contents: entry(a.path), loader: 'js', resolveDir: build.initialOptions.absWorkingDir ?? process.cwd() }));
    build.onResolve({ filter: new RegExp(`^(${roots.map((r) => r.replace(ESCAPE, '\\$&')).join('|')})(/.*)?$`) }, (a) => {
      // The runtime file's own entry resolves the package as usual, and so does a package's import of another
      // (socket.io's of engine.io): only this package's sources are sent to the runtime files.
      if (a.namespace === 'cli-runtime-entry' || /[\\/]node_modules[\\/]/.test(a.importer) || INLINE.has(a.path)) return undefined;
      if (!owner.has(a.path)) return { errors: [{ text: `${a.path} is not in CLI_RUNTIME_PACKAGES (disk/cli-runtime-packages.js)` }] };
      return { path: a.path, namespace: 'cli-runtime-shim' };
    });
    build.onLoad({ filter: /.*/, namespace: 'cli-runtime-shim' }, (a) => {
      const name = /** @type {string} */ (owner.get(a.path));
      if (!LAZY.has(name)) return { contents: shim(name, a.path), loader: 'js' };
      // The export names as the runtime file's entry will see them (its `require`, from the package root).
      const names = Object.keys(createRequire(join(build.initialOptions.absWorkingDir ?? process.cwd(), 'package.json'))(a.path));
      return { contents: lazyShim(name, a.path, names), loader: 'js' };
    });
  },
};

/**
 * This file's text, as this process loaded it (it is never bundled: bin/cli-bundle.mjs imports it from the sources).
 * The key holds it rather than the generators' `toString()`: that is the loader's reprint (Vitest rewrites a module's
 * imports), so a test that built the CLI bundle in-process had another key than every `parley` command, built the
 * same bundle again (~2-3 s of CPU) and left the cache's manifest under its key for the next command to rebuild.
 */
const thisFileText = () => {
  try {
    return readFileSync(fileURLToPath(import.meta.url), 'utf8');
  } catch {
    return '';
  }
};

/** The CLI build's plugin, with its cache key (changes whenever what it generates may: the lists, or this file). */
export const cliRuntimePackages = {
  plugin,
  key: JSON.stringify([CLI_RUNTIME_PACKAGES, [...INLINE], [...LAZY], createHash('sha256').update(thisFileText()).digest('hex')]),
};
