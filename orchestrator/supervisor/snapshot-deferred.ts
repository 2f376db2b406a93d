import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Plugin } from 'esbuild';
import { KEEP_EXTERNAL } from '../../disk/bundle-cache.js';
import { packagePath } from '../../disk/package-root.js';

/**
 * What the agent's start-up snapshot leaves out, and how its bundle reaches it after deserialisation
 * (agent-node/snapshot-entry.ts). Node 20's snapshot builder cannot load `node:http`, so neither it nor
 * anything that loads it at start may be evaluated while the snapshot is built.
 */

/** The global agent-node/snapshot-entry.ts sets after deserialisation (SNAPSHOT_RUNTIME there): name → module. */
export const RUNTIME_GLOBAL = '__parleySnapshotRuntime';

/**
 * Node's modules the snapshot must not evaluate: the HTTP stack (the builder cannot load it), and two the
 * builder warns it has not verified (readline: the human policy; async_hooks). Each is loaded on its first
 * property read, after deserialisation; the names are Node's own, read here when the bundle is built.
 */
export const DEFERRED_BUILTINS = Object.freeze(['http', 'https', 'tls', 'http2', 'readline', 'async_hooks']);

/**
 * Packages loaded from CommonJS bundles beside the blob, one per package (`<name>.cjs`): the LLM SDKs and
 * limiter, which the agent imports on demand only and which would make the blob (and every process's heap)
 * megabytes larger. (`ws` was one: the agent's seat connection is its own client now, agent-node/ws/.) Each bundle exports, by specifier, every module
 * of its package the agent imports, so that they share one copy of the package (the SDK's error classes).
 * A specifier not listed fails the snapshot's build (agent processes then start plain).
 * The CLI keeps a list of its own (disk/cli-runtime-packages.js), different on purpose: an agent process splits
 * the Mistral SDK so that a seat loads its chat functions only, and loads ioredis from a file because a
 * snapshot's `require` knows only Node's built-ins; the CLI takes the whole Mistral SDK as one file, resolves
 * ioredis from node_modules, and also moves out socket.io, tar and yaml, which no agent process loads.
 * Any other difference fails runtime-package-lists.test.ts (a package, or a module of a shared one, in one list only).
 */
export const RUNTIME_PACKAGES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  openai: ['openai'],
  // A `mistral:` seat's client: the SDK's minimal client and its chat functions only (llm/mistral-sdk.ts), ~1 MB
  // of the SDK's 2.4 MB. The whole SDK (batch jobs, files: never a seat's) is a bundle of its own, so that a
  // seat's process does not load it with the chat functions; it takes its HTTP client from this one (the SDK
  // calls that class's `request` only).
  mistral: [
    '@mistralai/mistralai/core.js',
    '@mistralai/mistralai/funcs/chatComplete.js',
    '@mistralai/mistralai/funcs/chatStream.js',
    '@mistralai/mistralai/models/errors',
    '@mistralai/mistralai/lib/http.js',
    // The SDK's verdict on an answer its light path does not read itself (llm/mistral-sdk-verdict.ts): in
    // this bundle, so that its errors are the classes the seat's client maps.
    '@mistralai/mistralai/lib/matchers.js',
    '@mistralai/mistralai/models/components/chatcompletionresponse.js',
    '@mistralai/mistralai/models/errors/httpvalidationerror.js',
  ],
  'mistral-sdk': ['@mistralai/mistralai'],
  'rate-limiter-flexible': ['rate-limiter-flexible'],
  // The shared rate limit's Redis client (llm/shared-limit.ts, `parley worker --rpm/--tpm`). It is external to
  // every bundle (disk/bundle-cache.js), and a snapshot's own `require` knows only Node's built-ins: left out
  // of this list, a process from the blob could not load it and every rate-limited request waited forever.
  ioredis: ['ioredis'],
});

/** Bundled into the snapshot as it is: a constant the light OpenAI client sends. */
const IN_SNAPSHOT = new Set(['openai/version']);

/** The runtime bundles' esbuild entry points: a generated module per package (see runtimeEntries). */
export const runtimeEntryPoints = (): Record<string, string> => Object.fromEntries(Object.keys(RUNTIME_PACKAGES).map((n) => [n, `runtime-package:${n}`]));

/**
 * This file, from the package root. What its plugins generate is tracked through its text (the bundle cache's
 * `reads`), and their keys hold data and this file's text (snapshotPluginKeys), never a function's source as
 * `toString()` gives it: that is the loader's reprint
 * (tsx, vitest and the CLI's bundle each print these differently), so a key holding one changed with the kind
 * of process that asked, and each switch (a test's pool, then a `parley` command, then a bench case) rebuilt the
 * snapshot bundle (~0.7 s) and the first time its blobs too.
 */
export const SNAPSHOT_DEFERRED_SOURCE = 'orchestrator/supervisor/snapshot-deferred.ts';
const readsThisFile = (): string[] => [SNAPSHOT_DEFERRED_SOURCE];

/**
 * The plugins' keys: the lists they generate from, and this file's text as this process loaded it (tsx and
 * vitest load it from the file; the CLI's bundle is rebuilt from it before a command runs). `reads` alone records
 * the file as the build finds it on disk: a process that loaded it before an edit (vitest's workers, `parley
 * serve`, a bench harness) built with its old code and recorded the new text, and since a bundle's directory is
 * named by its inputs, that stale bundle stayed under the name the edited sources address, for later processes too.
 */
export function snapshotPluginKeys(source: string): { deferred: string; runtime: string } {
  const keyOf = (...parts: unknown[]): string => createHash('sha256').update([source, ...parts.map((p) => JSON.stringify(p))].join('\0')).digest('hex').slice(0, 16);
  return { deferred: keyOf(DEFERRED_BUILTINS, RUNTIME_PACKAGES, [...IN_SNAPSHOT], KEEP_EXTERNAL), runtime: keyOf(RUNTIME_PACKAGES) };
}

/** No sources beside the code (none ship without them): nothing to edit either. */
const loadedSource = (): string => {
  try {
    return readFileSync(packagePath(SNAPSHOT_DEFERRED_SOURCE), 'utf8');
  } catch {
    return '';
  }
};
const KEYS = snapshotPluginKeys(loadedSource());

/** The runtime bundles' plugin: `runtime-package:<name>` is `module.exports = { <specifier>: require(<specifier>), … }`. */
export const runtimeEntries: { plugin: Plugin; key: string; reads: () => string[] } = {
  // The generated entries are not files the bundle cache can watch: the key follows RUNTIME_PACKAGES.
  key: KEYS.runtime,
  reads: readsThisFile,
  plugin: {
    name: 'snapshot-runtime-entries',
    setup(build) {
      build.onResolve({ filter: /^runtime-package:/ }, (a) => ({ path: a.path.slice('runtime-package:'.length), namespace: 'runtime-package' }));
      build.onLoad({ filter: /.*/, namespace: 'runtime-package' }, (a) => ({
        contents: `module.exports = {\n${(RUNTIME_PACKAGES[a.path] ?? []).map((s) => `  ${JSON.stringify(s)}: require(${JSON.stringify(s)}),`).join('\n')}\n};\n`,
        loader: 'js',
        resolveDir: build.initialOptions.absWorkingDir ?? process.cwd(),
      }));
    },
  },
};

const requireHere = createRequire(import.meta.url);

/** A module object whose properties load `node:<id>` on first read: esbuild reads a namespace's names at import. */
function deferredBuiltin(id: string): string {
  const names = Object.keys(requireHere(`node:${id}`) as object);
  return [
    `let real; const load = () => (real ??= globalThis.${RUNTIME_GLOBAL}(${JSON.stringify(`node:${id}`)}));`,
    `const m = {}; for (const k of ${JSON.stringify(names)}) Object.defineProperty(m, k, { get: () => load()[k], enumerable: true });`,
    'module.exports = m;',
  ].join('\n');
}

/** A module that is, after deserialisation, `specifier` as its runtime bundle exports it. */
function deferredPackage(specifier: string, bundle: string): string {
  return `module.exports = globalThis.${RUNTIME_GLOBAL}(${JSON.stringify(bundle)})[${JSON.stringify(specifier)}];`;
}

const ESCAPE = /[.*+?^${}()|[\]\\/]/g;
const anyOf = (names: readonly string[]) => names.map((n) => n.replace(ESCAPE, '\\$&')).join('|');

/** The snapshot bundle's plugin. `key`: part of the bundle cache's key, following the lists and the shims. */
export const snapshotDeferred: { plugin: Plugin; key: string; reads: () => string[] } = {
  key: KEYS.deferred,
  reads: readsThisFile,
  plugin: {
    name: 'snapshot-deferred',
    setup(build) {
      build.onResolve({ filter: new RegExp(`^(node:)?(${anyOf(DEFERRED_BUILTINS)})$`) }, (a) => ({ path: a.path.replace(/^node:/, ''), namespace: 'deferred-builtin' }));
      build.onLoad({ filter: /.*/, namespace: 'deferred-builtin' }, (a) => ({ contents: deferredBuiltin(a.path), loader: 'js' }));
      const owner = new Map(Object.entries(RUNTIME_PACKAGES).flatMap(([name, specs]) => specs.map((spec) => [spec, name] as const)));
      const roots = [...new Set([...owner.keys()].map((spec) => /^(@[^/]+\/)?[^/]+/.exec(spec)![0]))];
      build.onResolve({ filter: new RegExp(`^(${anyOf(roots)})(/.*)?$`) }, (a) => {
        if (IN_SNAPSHOT.has(a.path)) return undefined;
        if (!owner.has(a.path)) return { errors: [{ text: `${a.path} is not in RUNTIME_PACKAGES (orchestrator/supervisor/snapshot-deferred.ts)` }] };
        return { path: a.path, namespace: 'deferred-package' };
      });
      build.onLoad({ filter: /.*/, namespace: 'deferred-package' }, (a) => ({ contents: deferredPackage(a.path, owner.get(a.path)!), loader: 'js' }));
      // A package kept outside the bundles is a `require` the snapshot cannot serve after deserialisation (it
      // knows Node's built-ins only): refused at build, so the pool starts plain rather than failing at the
      // first call (how `--rpm` hung once: ioredis).
      const outside = KEEP_EXTERNAL.filter((e) => !roots.includes(e.replace(/\/\*$/, '')));
      build.onResolve({ filter: new RegExp(`^(${anyOf(outside.map((e) => e.replace(/\/\*$/, '')))})(/.*)?$`) }, (a) => ({
        errors: [{ text: `${a.path} is kept outside the bundles and not in RUNTIME_PACKAGES (orchestrator/supervisor/snapshot-deferred.ts)` }],
      }));
    },
  },
};
