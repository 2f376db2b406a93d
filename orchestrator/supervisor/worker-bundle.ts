import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';

/**
 * Agent processes start from a pre-built JavaScript bundle of their entry instead of under the tsx loader.
 * Why: on Node 20 the tsx loader runs its module hooks in an extra thread and transforms every file
 * at import, which costs each process ~200 ms and ~35 MB before it does anything; the pool forks one
 * process per seat in flight. The bundle is built once per run with esbuild (a declared, pinned
 * dependency in package.json), in ~100 ms, and cached under `node_modules/.cache/parley/` by content
 * hash, so concurrent runs share it and a source edit yields a new one. The LLM SDKs stay external
 * (resolved from node_modules as usual) and LLM policies a lazily loaded chunk, so a bot-only process
 * never loads an SDK. The bundle's code is the sources' code: files shipped next to the sources (prompt
 * templates, package.json, prices) are found through the package root the supervisor declares to the
 * process (agent-entry.ts, disk/package-root.ts), not through the bundle's own location.
 */

const requireHere = createRequire(import.meta.url);

/** `<node_modules>/.cache/parley`, next to the esbuild this package depends on: where tools keep build caches. */
function cacheRoot(): string {
  return join(dirname(dirname(requireHere.resolve('esbuild/package.json'))), '.cache', 'parley');
}

const built = new Map<string, Promise<string>>();

/**
 * The bundled form of a TypeScript worker entry: the path of an `.mjs` file runnable by plain `node`.
 * Built once per process and entry; rejects if esbuild is unavailable or the cache is not writable
 * (the caller then falls back to the tsx loader).
 */
export function bundledWorker(entry: string): Promise<string> {
  let p = built.get(entry);
  if (!p) {
    p = build(entry);
    built.set(entry, p);
    p.catch(() => built.delete(entry));
  }
  return p;
}

async function build(entry: string): Promise<string> {
  // Loaded on first use: a run that starts agents under tsx, or none at all, never loads the bundler.
  const esbuild = await import('esbuild');
  const root = cacheRoot();
  const staging = join(root, `.staging-${process.pid}-${randomBytes(4).toString('hex')}`);
  const result = await esbuild.build({
    entryPoints: { worker: entry },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Small dependencies (zod, ws, nanoid) are bundled too: resolving and compiling zod's many files
    // was most of a process's start-up. The LLM SDKs stay external (big, loaded lazily, by few processes),
    // and so do ws's optional native add-ons (required inside try/catch).
    external: ['openai', '@mistralai/*', 'bufferutil', 'utf-8-validate'],
    // CommonJS dependencies (ws) `require` Node built-ins: give the ESM bundle a real `require`.
    banner: { js: "import { createRequire as __parleyCreateRequire } from 'node:module'; const require = __parleyCreateRequire(import.meta.url);" },
    outdir: staging,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunk-[hash]',
    write: false,
    logLevel: 'silent',
    legalComments: 'none',
  });
  void esbuild.stop();
  const files = (result.outputFiles ?? []).map((f) => ({ rel: relative(staging, f.path), contents: f.contents }));
  if (!files.some((f) => f.rel === 'worker.mjs')) throw new Error('esbuild produced no worker.mjs');
  const hash = createHash('sha256');
  for (const f of [...files].sort((a, b) => a.rel.localeCompare(b.rel))) hash.update(f.rel).update('\0').update(f.contents);
  const dir = join(root, `worker-${hash.digest('hex').slice(0, 16)}`);
  const main = join(dir, 'worker.mjs');
  if (existsSync(main)) return main;
  // Written aside and renamed in one step: a concurrent run sees either no bundle or a complete one.
  try {
    mkdirSync(staging, { recursive: true });
    for (const f of files) writeFileSync(join(staging, f.rel), f.contents);
    renameSync(staging, dir);
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(main)) throw err;
  }
  return main;
}
