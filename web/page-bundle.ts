import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { cachedBundle } from '../disk/bundle-cache.js';
import { packageRoot } from '../disk/package-root.js';
import type { WebPage } from './assets.js';

/**
 * The browser pages' scripts as one cached build (disk/bundle-cache.js: esbuild, kept under
 * node_modules/.cache/parley/web, rebuilt when a file they were built from changes), one output file per page.
 *
 * Why cached on disk: every `parley serve`, `run --watch`, `annotate`, `watch` and `study` process built the page it
 * served again on its first request (esbuild's service started, ~0.3-0.4 s of CPU for the seat or the watch page);
 * the test suite starts ~15 of them. Checking the cached build costs a few ms. All pages in one build: it costs little
 * more than one page (esbuild shares the parse of protocol/, zod and socket.io-client), and every later page is there.
 * Built as the pages always were (one IIFE file each, ES2020, minified), with the plugins of every bundle of the
 * package (zod's English locale only, protocol/'s modules without side effects: what a page does not use is left out).
 */

/** esbuild's options for the pages: JSON (part of the cache's key). */
const PAGE_OPTIONS = Object.freeze({ bundle: true, format: 'iife', platform: 'browser', target: 'es2020', minify: true });

const requireHere = createRequire(import.meta.url);

/** `<node_modules>/.cache/parley/web`, beside the CLI's and the agent processes' bundles. */
const cacheDir = (): string => join(dirname(dirname(requireHere.resolve('esbuild/package.json'))), '.cache', 'parley', 'web');

/**
 * The path of `page`'s script in an up-to-date build of all `pages` (each has web/<page>/main.ts), built now if
 * needed. Rejects when it cannot build or the cache cannot be written (the caller builds the page in memory instead).
 */
export async function cachedPageScript(page: WebPage, pages: readonly WebPage[]): Promise<string> {
  const entryPoints = Object.fromEntries(pages.map((p) => [p, `web/${p}/main.ts`]));
  const first = await cachedBundle({ root: packageRoot(), dir: cacheDir(), entryPoints, main: `${pages[0]}.js`, options: PAGE_OPTIONS });
  return join(dirname(first), `${page}.js`);
}
