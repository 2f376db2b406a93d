// @ts-check
/**
 * The esbuild plugins every bundle of this package is built with (disk/bundle-cache.js), and the browser
 * pages' builds (web/assets.ts, zod's locales only). Plain JavaScript, as the cache: bin/parley.js builds
 * before any TypeScript loader runs. A change to what a plugin writes must bump the cache's FORMAT
 * (disk/bundle-cache.js): their code is not part of a bundle's key.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';

/**
 * zod's `locales` namespace holds its error messages in some fifty languages: ~370 KB, half of zod in a
 * bundle, that every agent process and command would parse at start-up (and every browser page: the seat
 * page's script is 262 KB with it instead of 523 KB, web/assets.ts). Parley keeps zod's default, English
 * (which zod imports by itself), so the namespace is built with `en` only. Part of every build here (not
 * of `options`, which must be JSON for the key: FORMAT is bumped when this changes).
 * @type {import('esbuild').Plugin}
 */
export const zodLocalesEnglishOnly = {
  name: 'zod-locales-english-only',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
      contents: 'export { default as en } from "./en.js";\n',
      resolveDir: dirname(args.path),
    }));
  },
};

/**
 * protocol/ is frames, schemas and codes only, with no side effects (test/boundaries/protocol-purity.test.ts:
 * it imports zod and its own files, and holds no I/O and no registry). Said to esbuild, a module of it that
 * a bundle reaches only through the barrel (protocol/index.ts) and never uses is left out: every top-level
 * `z.object(…)` is a call, which esbuild must otherwise keep, so an agent process built all of protocol/'s
 * ~1,300 schemas at start (the run records' and evaluations' a quarter of them) though a seat decodes a few.
 * @type {import('esbuild').Plugin}
 */
const protocolWithoutSideEffects = {
  name: 'protocol-without-side-effects',
  setup(build) {
    const protocolDir = join(build.initialOptions.absWorkingDir ?? process.cwd(), 'protocol') + sep;
    build.onResolve({ filter: /protocol\/[\w-]+\.js$|^\.\/[\w-]+\.js$/ }, async (args) => {
      if (args.pluginData === PROTOCOL_RESOLVING || args.importer.includes(`${sep}node_modules${sep}`)) return undefined;
      const r = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: PROTOCOL_RESOLVING });
      if (r.errors.length > 0 || !r.path.startsWith(protocolDir) || r.path.endsWith('.test.ts')) return undefined;
      return { ...r, sideEffects: false };
    });
  },
};
const PROTOCOL_RESOLVING = Symbol('protocol-resolving');

/**
 * ws's client module requires `https` and `tls` at load, for `wss://` URLs only: ~10 ms of every agent
 * process's and command's start, on a loopback `ws://` that never uses them. The bundled copy loads them on
 * the first secure connection instead. The two lines are matched exactly; if a ws release changes them the
 * module is bundled as it is (test/orchestrator/supervisor/agent-entry.test.ts then fails, to say so).
 * @type {import('esbuild').Plugin}
 */
const wsSecureModulesOnUse = {
  name: 'ws-secure-modules-on-use',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]ws[\\/]lib[\\/]websocket\.js$/ }, async (args) => ({
      contents: readFileSync(args.path, 'utf8')
        .replace("const https = require('https');", "const https = { get request() { return require('https').request; } };")
        .replace("const tls = require('tls');", "const tls = { connect: (...args) => require('tls').connect(...args) };"),
      loader: 'js',
    }));
  },
};

/** The plugins of every build here (bench/ builds with them to measure what a bundle holds). */
export const BUNDLE_PLUGINS = Object.freeze([zodLocalesEnglishOnly, wsSecureModulesOnUse, protocolWithoutSideEffects]);
