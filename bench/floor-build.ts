/**
 * The floor seat as one CommonJS file (bench/floor.md): the pool bundles a TypeScript entry as an ES module
 * (worker.mjs), and Node 20's ES module loader costs a process ~30 M instructions more at start than a
 * CommonJS script (callgrind, fork → idle: 130 M as .mjs against bare `node -e 0`'s 91 M). The floor is the
 * cheapest start, so the harness hands the pool this file (a `.cjs` entry is started as it is, no bundle).
 * Built with esbuild into Node's build cache beside the pool's, again whenever the sources are newer.
 */
import { build } from 'esbuild';
import { mkdirSync, renameSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCES = ['floor-seat.ts', 'floor-ws.ts', 'floor-http.ts', 'floor-body.ts'].map((f) => fileURLToPath(new URL(`./${f}`, import.meta.url)));

const mtime = (p: string) => {
  try {
    return statSync(p).mtimeMs;
  } catch {
    return -1;
  }
};

/** Path of the built floor seat (`floor-seat.cjs`), built first if missing or older than a source. */
export async function floorSeatScript(): Promise<string> {
  const dir = join(dirname(dirname(createRequire(import.meta.url).resolve('esbuild/package.json'))), '.cache', 'parley', 'floor');
  const out = join(dir, 'floor-seat.cjs');
  if (SOURCES.some((s) => mtime(s) > mtime(out))) {
    mkdirSync(dir, { recursive: true });
    // Written beside and renamed into place: a pool starting processes from `out` while another bench (or the
    // test) rebuilds it never reads half a file.
    const part = `${out}.${process.pid}.part`;
    await build({ entryPoints: [SOURCES[0]!], outfile: part, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'error' });
    renameSync(part, out);
  }
  return out;
}
