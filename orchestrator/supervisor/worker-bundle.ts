import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { cachedBundle, NODE_BUNDLE_OPTIONS } from '../../disk/bundle-cache.js';
import { packageRoot } from '../../disk/package-root.js';

/**
 * Agent processes start from a pre-built JavaScript bundle of their entry instead of under the tsx loader.
 * Why: on Node 20 the tsx loader runs its module hooks in an extra thread and transforms every file
 * at import, which costs each process ~200 ms and ~35 MB before it does anything; the pool forks one
 * process per seat in flight. The bundle is built with esbuild (a declared, pinned dependency in
 * package.json) and kept under `node_modules/.cache/parley/worker/` (disk/bundle-cache.js), so runs
 * share it, a source edit yields a new one, and a run whose sources did not change pays ~10 ms to know
 * it instead of a 0.2–0.5 s build. The LLM SDKs are bundled into chunks
 * that only LLM policies load (dynamic imports), so a bot-only process never loads an SDK. The bundle's code is the sources' code: files shipped next to the sources (prompt
 * templates, package.json, prices) are found through the package root the supervisor declares to the
 * process (agent-entry.ts, disk/package-root.ts), not through the bundle's own location.
 */

const requireHere = createRequire(import.meta.url);

/** `<node_modules>/.cache/parley`, next to the esbuild this package depends on: where tools keep build caches. */
function cacheRoot(): string {
  return join(dirname(dirname(requireHere.resolve('esbuild/package.json'))), '.cache', 'parley');
}

/** Where the agent processes' bundles are kept (worker-snapshot.ts keeps the snapshot's there too). */
export const workerCacheRoot = (): string => join(cacheRoot(), 'worker');

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
  // One cache directory per entry file (tests start workers of their own).
  const dir = join(workerCacheRoot(), createHash('sha256').update(entry).digest('hex').slice(0, 12));
  return cachedBundle({
    root: packageRoot(),
    dir,
    entryPoints: { worker: entry },
    main: 'worker.mjs',
    // Dependencies are bundled too (all but KEEP_EXTERNAL): resolving and compiling zod's many files was most
    // of a process's start-up, and loading the Mistral SDK file by file cost an LLM process ~1 s of CPU before
    // its first move. The SDKs sit in chunks reached only by dynamic imports, so a bot-only process never
    // loads them (test/orchestrator/supervisor/agent-entry.test.ts).
    options: { ...NODE_BUNDLE_OPTIONS },
  });
}
