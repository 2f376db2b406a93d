// @ts-check
/**
 * Node's modules the CLI bundle loads on first use instead of at the init of every module that imports them
 * (bin/cli-bundle.mjs). `node:crypto` is imported at the top of ~25 modules for a `createHash` or `randomUUID`
 * called in a function, so `show`, `export` or `eval --help` loaded it (~200 page faults, ~8-10 ms under load)
 * and never called it. In the bundle the module is an object with one getter per name of the real module (read
 * here, at build), each loading it on its first read: esbuild reads an import's names at use
 * (`import_node_crypto.createHash(…)`), so a command that hashes loads it then, as before, and one that does not,
 * never. orchestrator/supervisor/snapshot-deferred.ts does the same for the agent's snapshot.
 */
import { createRequire } from 'node:module';

/** Built-in modules deferred this way (with or without `node:`). */
const DEFERRED = Object.freeze(['crypto']);

const requireHere = createRequire(import.meta.url);

/** The module for `node:<id>`: the real module's names, each a getter that loads it. @param {string} id */
function deferredBuiltin(id) {
  const names = Object.keys(requireHere(`node:${id}`));
  return [
    `let real; const load = () => (real ??= require(${JSON.stringify(`node:${id}`)}));`,
    `const m = {}; for (const k of ${JSON.stringify(names)}) Object.defineProperty(m, k, { get: () => load()[k], enumerable: true });`,
    'module.exports = m;',
  ].join('\n');
}

/** @type {import('esbuild').Plugin} */
const plugin = {
  name: 'cli-deferred-builtins',
  setup(build) {
    build.onResolve({ filter: new RegExp(`^(node:)?(${DEFERRED.join('|')})$`) }, (a) =>
      // The generated module's own require of the real one stays Node's.
      a.namespace === 'cli-deferred-builtin' ? { path: a.path, external: true } : { path: a.path.replace(/^node:/, ''), namespace: 'cli-deferred-builtin' },
    );
    build.onLoad({ filter: /.*/, namespace: 'cli-deferred-builtin' }, (a) => ({ contents: deferredBuiltin(a.path), loader: 'js' }));
  },
};

/** The CLI build's plugin, with its cache key (the list, the generated code and Node's names, which a new Node may change). */
export const cliDeferredBuiltins = { plugin, key: JSON.stringify([DEFERRED, deferredBuiltin.toString(), plugin.setup.toString(), process.versions.node]) };
