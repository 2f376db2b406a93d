import { readFileSync } from 'node:fs';
import { zodLocalesEnglishOnly } from '../disk/bundle-cache.js';
import { packagePath } from '../disk/package-root.js';
import { cachedPageScript } from './page-bundle.js';
import { pageShell } from './page-shell.js';

/**
 * The browser pages' assets, built in memory on first request with esbuild (declared, pinned) from
 * web/<page>/main.ts and cached for the life of the process. Server-side only: the orchestrator's HTTP
 * server serves them; the pages themselves import nothing but protocol/ and socket.io-client.
 */
export type WebPage = 'seat' | 'annotate' | 'watch' | 'study' | 'organiser';

/** The pages, for routes that accept a page name from a URL (anything else is 404). */
export const WEB_PAGES: readonly WebPage[] = ['seat', 'annotate', 'watch', 'study', 'organiser'];

const bundles = new Map<WebPage, Promise<string>>();
const styles = new Map<WebPage, string>();
// Through the package root, not this file's location: the CLI may run from a bundle in a build cache.
const read = (path: string) => readFileSync(packagePath('web', path), 'utf8');

/** The page's HTML document: the one shell every page shares (page-shell.ts) around the page's own body. */
export function pageHtml(page: WebPage): string {
  return pageShell(page, read(`./${page}/body.html`));
}

/**
 * The page's stylesheet: the shared look (style/base.css) followed by the page's own. Served as a file
 * from this server, so the pages' CSP needs no inline styles.
 */
export function pageStyle(page: WebPage): string {
  let css = styles.get(page);
  if (css === undefined) {
    css = `${read('./style/base.css')}\n${read(`./${page}/${page}.css`)}`;
    styles.set(page, css);
  }
  return css;
}

/**
 * The page's script, bundled for browsers (one file, ES2020, minified): from the build cache (page-bundle.ts), where
 * one build of every page serves every process until a page's source changes; else (no esbuild, a cache that cannot
 * be written) built here in memory. esbuild is imported on the first page request only: loading its API costs
 * ~70 ms of CPU, and every `parley run` serves pages it rarely has to build.
 */
export function pageScript(page: WebPage): Promise<string> {
  let p = bundles.get(page);
  if (!p) {
    p = scriptOf(page);
    // A failed build is not cached: the next request retries (and reports the error again).
    p.catch(() => bundles.delete(page));
    bundles.set(page, p);
  }
  return p;
}

/**
 * The cached build's file, or this process's own build when the cache cannot build it or its file cannot be read
 * (another process's pruning, a cache emptied by hand). `find`: another cache (tests).
 */
export function scriptOf(page: WebPage, find: typeof cachedPageScript = cachedPageScript): Promise<string> {
  return find(page, WEB_PAGES)
    .then((file) => readFileSync(file, 'utf8'))
    .catch(() => builtInMemory(page));
}

/** The page's script built by this process, kept nowhere but here (the cache's fallback). */
function builtInMemory(page: WebPage): Promise<string> {
  return import('esbuild')
    .then(({ build }) => build({
      entryPoints: [packagePath('web', page, 'main.ts')],
      bundle: true,
      write: false,
      format: 'iife',
      platform: 'browser',
      target: 'es2020',
      minify: true,
      logLevel: 'silent',
      plugins: [zodLocalesEnglishOnly],
    }))
    .then((r) => r.outputFiles[0]!.text);
}
