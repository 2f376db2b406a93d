import { build } from 'esbuild';
import { join } from 'node:path';
import { NODE_BUNDLE_OPTIONS } from '../../disk/bundle-cache.js';

/**
 * Bundles a TypeScript helper script that a test starts as many processes (one file, dependencies
 * inlined, like the CLI's bundle) into `outDir`, and returns the file to run with plain `node`. Started
 * under tsx instead, every process would compile the script and its imports again (~0.5 s of CPU each).
 * esbuild's service is left running: Vitest's own transforms use it in this process.
 */
export async function scriptBundle(entry: string, outDir: string): Promise<string> {
  await build({ ...NODE_BUNDLE_OPTIONS, splitting: false, entryPoints: { script: entry }, outdir: outDir, logLevel: 'silent' });
  return join(outDir, 'script.mjs');
}
