// @ts-check
/**
 * The esbuild plugins every bundle of this package is built with (disk/bundle-cache.js), and the browser
 * pages' builds (web/assets.ts, zod's locales only). Plain JavaScript, as the cache: bin/parley.js builds
 * before any TypeScript loader runs. A change to what a plugin writes must bump the cache's FORMAT
 * (disk/bundle-cache.js): their code is not part of a bundle's key.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

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
 * ws's client module requires `https` and `tls` at load, for `wss://` URLs only: ~10 ms of every
 * command's start, on a loopback `ws://` that never uses them. The bundled copy loads them on
 * the first secure connection instead. The two lines are matched exactly; if a ws release changes them the
 * module is bundled as it is (test/cli-bundle.test.ts then fails, to say so). Only the CLI bundles ws now:
 * the agent's seat connection is its own client (agent-node/ws/).
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

/**
 * The barrels (`<dir>/index.ts`, re-exports only) the CLI's and the agent snapshot's bundles import around, relative to the package root.
 * Every module they list is free of effects at load (declarations, schemas, constants), so one left out of a
 * command's start changes nothing but its CPU.
 */
export const FLATTENED_BARRELS = Object.freeze(['protocol', 'run-dir', 'llm', 'orchestrator/run', 'scenarios', 'simulation', 'agent-node/policies/llm']);

/**
 * `import { A, B } from '…/run-dir/index.js'` (any barrel of `dirs`) rewritten to import each name from the
 * module that defines it, for the CommonJS bundles (the CLI's, bin/cli-bundle.mjs; the agent snapshot's). Why: there every module a
 * command reaches is wrapped in a function run at its first use, and a wrapped barrel runs every module it
 * lists, and every schema they build, for any one name: protocol/'s alone is 27 modules (the frames, the
 * records, the evaluations; `parley report` needs the records' only). protocol/'s (the first, measured: report
 * 177 -> 166 ms, a refused agent 177 -> 163, a refused run 210 -> 203, interleaved, n = 11) is pure
 * (test/boundaries/protocol-purity.test.ts); the others list modules that only declare. The statement stays on
 * its lines (stack traces through the source map still point right). A name not found in the barrel as
 * `export { name } from './m.js'`, nor as a plain `export const|function|…` of a module it lists with
 * `export * from`, leaves the statement as it was: the barrel then runs as before. A change to what this
 * writes must bump BARRELS_FLATTENED_KEY.
 * @param {readonly string[]} dirs
 * @returns {import('esbuild').Plugin}
 */
export function barrelsFlattened(dirs) {
  return {
    name: 'barrels-flattened',
    setup(build) {
      const root = build.initialOptions.absWorkingDir ?? process.cwd();
      const barrels = new Map(dirs.map((d) => [join(root, d, 'index.ts'), join(root, d)]));
      /** @type {Map<string, Map<string, string>>} barrel -> name -> module path without extension ('' if ambiguous), read once per build */
      let owners = new Map();
      build.onStart(() => {
        owners = new Map();
      });
      const ownersOf = (/** @type {string} */ barrel) => {
        let map = owners.get(barrel);
        if (!map) owners.set(barrel, (map = barrelOwners(barrel)));
        return map;
      };
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        if (args.path.includes(`${sep}node_modules${sep}`) || barrels.has(args.path)) return undefined;
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes("index.js'")) return undefined;
        let changed = false;
        const contents = text.replace(/^(import|export) \{([^}]*)\} from '(\.{1,2}\/[\w./-]*index\.js)';/gm, (statement, verb, list, spec) => {
          const barrel = join(dirname(args.path), spec).replace(/\.js$/, '.ts');
          if (!barrels.has(barrel)) return statement;
          const rewritten = splitImport(statement, verb, list, ownersOf(barrel), dirname(args.path));
          changed ||= rewritten !== statement;
          return rewritten;
        });
        return changed ? { contents, loader: 'ts' } : undefined;
      });
    },
  };
}

/**
 * Where each name of a barrel comes from: `export { a, type B } from './m.js'` names them; `export * from
 * './m.js'` stands for m's plain `export const|function|…` declarations. A name two modules give is ambiguous
 * (TypeScript refuses it through `export *`), a renamed one (`a as b`) is not placed: both map to ''.
 * @param {string} barrel
 * @returns {Map<string, string>}
 */
function barrelOwners(barrel) {
  /** @type {Map<string, string>} */
  const owners = new Map();
  const place = (/** @type {string} */ name, /** @type {string} */ mod) => {
    const seen = owners.get(name);
    owners.set(name, seen === undefined || seen === mod ? mod : '');
  };
  let text;
  try {
    text = readFileSync(barrel, 'utf8');
  } catch {
    return owners;
  }
  const dir = dirname(barrel);
  for (const [, names, spec] of text.matchAll(/^export (?:type )?\{([^}]*)\} from '(\.{1,2}\/[\w./-]+)\.js';$/gm)) {
    for (const raw of names.split(',')) {
      const item = raw.trim().replace(/^type\s+/, '');
      if (item) place(item.includes(' as ') ? item.split(/\s+as\s+/)[1] : item, item.includes(' as ') ? '' : join(dir, spec));
    }
  }
  for (const [, spec] of text.matchAll(/^export \* from '(\.{1,2}\/[\w./-]+)\.js';$/gm)) {
    const mod = join(dir, spec);
    if (spec.endsWith('/index')) {
      // A barrel in a barrel (llm/'s providers/): its names, from where it takes them.
      for (const [name, owner] of barrelOwners(`${mod}.ts`)) place(name, owner);
      continue;
    }
    let src;
    try {
      src = readFileSync(`${mod}.ts`, 'utf8');
    } catch {
      continue;
    }
    const names = [...src.matchAll(/^export (?:declare )?(?:async )?(?:const|let|function\*?|class|abstract class|enum|type|interface) ([\w$]+)/gm)].map((m) => m[1]);
    for (const [, list] of src.matchAll(/^export const \{([^}]*)\} =/gm)) names.push(...list.split(',').map((n) => n.trim()).filter((n) => /^[\w$]+$/.test(n)));
    for (const name of names) place(name, mod);
  }
  return owners;
}

/**
 * One `import { … } from barrel` statement (or `export { … } from`) as one per module that defines its names,
 * on as many lines as it took; the statement itself when a name is not placed.
 * @param {string} statement
 * @param {string} verb `import` or `export`
 * @param {string} list
 * @param {Map<string, string>} owners
 * @param {string} fromDir
 */
function splitImport(statement, verb, list, owners, fromDir) {
  /** @type {Map<string, string[]>} */
  const byModule = new Map();
  for (const raw of list.split(',')) {
    const item = raw.trim();
    if (!item) continue;
    const mod = owners.get(item.replace(/^type\s+/, '').split(/\s+as\s+/)[0]);
    if (!mod) return statement;
    byModule.set(mod, [...(byModule.get(mod) ?? []), item]);
  }
  const lines = statement.split('\n').length - 1;
  return [...byModule].map(([mod, items]) => `${verb} { ${items.join(', ')} } from '${relativeSpecifier(fromDir, mod)}.js';`).join(' ') + '\n'.repeat(lines);
}

/** Every barrel of FLATTENED_BARRELS flattened. */
const packageBarrelsFlattened = barrelsFlattened(FLATTENED_BARRELS);

/**
 * The files barrelsFlattened(FLATTENED_BARRELS) reads to place names (each barrel and every module it lists),
 * relative to `root`: a bundle's cache must track them (disk/bundle-cache.js `reads`). esbuild does not list
 * them as inputs once no import reaches a barrel, so a change to a barrel alone (a name now from another
 * module) left the old bundle running while the sources said otherwise.
 * @param {string} root
 * @returns {string[]}
 */
export function flattenedBarrelReads(root) {
  return [...new Set(FLATTENED_BARRELS.flatMap((d) => barrelFiles(root, join(d, 'index.ts'))))];
}

/**
 * A barrel and the modules it lists, those of a barrel it lists included (relative to `root`).
 * @param {string} root
 * @param {string} barrel
 * @returns {string[]}
 */
function barrelFiles(root, barrel) {
  let text;
  try {
    text = readFileSync(join(root, barrel), 'utf8');
  } catch {
    return [];
  }
  const listed = [...text.matchAll(/^export (?:type )?(?:\*|\{[^}]*\}) from '(\.{1,2}\/[\w./-]+)\.js';$/gm)].map(([, spec]) => relative(root, join(root, dirname(barrel), `${spec}.ts`)));
  return [barrel, ...listed.flatMap((rel) => (rel.endsWith(`${sep}index.ts`) ? barrelFiles(root, rel) : [rel]))];
}

/** `./x` or `../../x`: the specifier of directory `to` from directory `from`. */
function relativeSpecifier(from, to) {
  const rel = relative(from, to).split(sep).join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/** Bumped when barrelsFlattened writes something else (part of the bundles' cache keys). */
const BARRELS_FLATTENED_KEY = '2';

/**
 * FLATTENED_BARRELS's flattening as a bundle-cache plugin entry (plugin, key, the files it reads), for the bundles
 * whose modules esbuild wraps: the CLI's (bin/cli-bundle.mjs) and the agent snapshot's, a CommonJS bundle too
 * (orchestrator/supervisor/worker-snapshot.ts). There, through protocol/'s barrel, every agent process built the run
 * records' and evaluations' schemas (~290 KB of the 7 MB blob, ~11 M instructions of each process's start).
 */
export const FLATTENED_BARRELS_PLUGIN = Object.freeze({ plugin: packageBarrelsFlattened, key: BARRELS_FLATTENED_KEY, reads: flattenedBarrelReads });

/** The plugins of every build here (bench/ builds with them to measure what a bundle holds). */
export const BUNDLE_PLUGINS = Object.freeze([zodLocalesEnglishOnly, wsSecureModulesOnUse, protocolWithoutSideEffects]);
