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
 * `import { A, B } from '…/protocol/index.js'` rewritten to import each name from the module of protocol/ that
 * defines it, for the CLI's CommonJS bundle (bin/cli-bundle.js). Why: there every module a command reaches is
 * wrapped in a function run at its first use, and a wrapped barrel runs all 27 of protocol/'s modules, every
 * schema of the wire protocol and the records, for any name (`parley report` needs the records' schemas, not
 * the frames'): CPU of one command, interleaved, n = 11, load 30-44: report 177 -> 166 ms, a refused agent
 * 177 -> 163, a refused run 210 -> 203, export 211 -> 208, a refused eval 210 -> 210. protocol/ is pure (test/boundaries/protocol-purity.test.ts), so no module is
 * skipped for an effect. The statement stays on its lines (stack traces through the source map still point
 * right). A name not found as a plain `export const|function|…` of a module the barrel lists leaves the
 * statement as it was: the barrel then runs as before. A change to what this writes must bump the key below.
 * @type {import('esbuild').Plugin}
 */
export const protocolBarrelFlattened = {
  name: 'protocol-barrel-flattened',
  setup(build) {
    const root = build.initialOptions.absWorkingDir ?? process.cwd();
    const protocolDir = join(root, 'protocol');
    const barrel = join(protocolDir, 'index.ts');
    /** @type {Map<string, string> | null} name -> module file name (`frames`), read once per build */
    let owners = null;
    build.onStart(() => {
      owners = null;
    });
    const ownerOf = () => {
      if (owners) return owners;
      owners = new Map();
      let text;
      try {
        text = readFileSync(barrel, 'utf8');
      } catch {
        return owners;
      }
      for (const [, mod] of text.matchAll(/^export \* from '\.\/([\w-]+)\.js';$/gm)) {
        let src;
        try {
          src = readFileSync(join(protocolDir, `${mod}.ts`), 'utf8');
        } catch {
          continue;
        }
        const names = [...src.matchAll(/^export (?:declare )?(?:async )?(?:const|let|function\*?|class|abstract class|enum|type|interface) ([\w$]+)/gm)].map((m) => m[1]);
        for (const [, list] of src.matchAll(/^export const \{([^}]*)\} =/gm)) names.push(...list.split(',').map((n) => n.trim()).filter((n) => /^[\w$]+$/.test(n)));
        for (const name of names) {
          // A name two modules export is ambiguous through `export *` (TypeScript refuses it): never rewritten.
          const seen = owners.get(name);
          owners.set(name, seen === undefined || seen === mod ? mod : '');
        }
      }
      return owners;
    };
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      if (args.path.includes(`${sep}node_modules${sep}`) || args.path === barrel) return undefined;
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes("protocol/index.js'") && !(dirname(args.path) === protocolDir && text.includes("'./index.js'"))) return undefined;
      const map = ownerOf();
      const contents = text.replace(/^import \{([^}]*)\} from '([./]+(?:protocol\/)?index\.js)';/gm, (statement, list, spec) => {
        const target = join(dirname(args.path), spec);
        if (target !== join(protocolDir, 'index.js')) return statement;
        const byModule = new Map();
        for (const raw of list.split(',')) {
          const item = raw.trim();
          if (!item) continue;
          const name = item.replace(/^type\s+/, '').split(/\s+as\s+/)[0];
          const mod = map.get(name);
          if (!mod) return statement;
          byModule.set(mod, [...(byModule.get(mod) ?? []), item]);
        }
        const base = relativeSpecifier(dirname(args.path), protocolDir);
        const lines = statement.split('\n').length - 1;
        return [...byModule].map(([mod, items]) => `import { ${items.join(', ')} } from '${base}/${mod}.js';`).join(' ') + '\n'.repeat(lines);
      });
      return { contents, loader: 'ts' };
    });
  },
};

/**
 * The files protocolBarrelFlattened reads to place names (the barrel and every module it lists), relative to
 * `root`: a bundle's cache must track them (disk/bundle-cache.js `reads`). esbuild does not list them as
 * inputs once no import reaches the barrel, so a change to the barrel alone (a name now from another module)
 * left the old bundle running while the sources said otherwise.
 * @param {string} root
 * @returns {string[]}
 */
export function protocolBarrelReads(root) {
  let text;
  try {
    text = readFileSync(join(root, 'protocol', 'index.ts'), 'utf8');
  } catch {
    return [];
  }
  return ['protocol/index.ts', ...[...text.matchAll(/^export \* from '\.\/([\w-]+)\.js';$/gm)].map(([, mod]) => `protocol/${mod}.ts`)];
}

/** `./x` or `../../x`: the specifier of directory `to` from directory `from`. */
function relativeSpecifier(from, to) {
  const rel = relative(from, to).split(sep).join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/** Bumped when protocolBarrelFlattened writes something else (part of the CLI bundle's cache key). */
export const PROTOCOL_BARREL_FLATTENED_KEY = '1';

/** The plugins of every build here (bench/ builds with them to measure what a bundle holds). */
export const BUNDLE_PLUGINS = Object.freeze([zodLocalesEnglishOnly, wsSecureModulesOnUse, protocolWithoutSideEffects]);
