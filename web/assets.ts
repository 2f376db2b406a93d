import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * The browser pages' assets, built in memory on first request with esbuild (declared, pinned) from
 * web/<page>/main.ts and cached for the life of the process. Server-side only: the orchestrator's HTTP
 * server serves them; the pages themselves import nothing but protocol/ and socket.io-client.
 */
export type WebPage = 'seat' | 'annotate';

const bundles = new Map<WebPage, Promise<string>>();

/** The page's HTML shell. */
export function pageHtml(page: WebPage): string {
  return readFileSync(fileURLToPath(new URL(`./${page}/index.html`, import.meta.url)), 'utf8');
}

/** The page's script, bundled for browsers (one file, ES2020, minified). */
export function pageScript(page: WebPage): Promise<string> {
  let p = bundles.get(page);
  if (!p) {
    p = build({
      entryPoints: [fileURLToPath(new URL(`./${page}/main.ts`, import.meta.url))],
      bundle: true,
      write: false,
      format: 'iife',
      platform: 'browser',
      target: 'es2020',
      minify: true,
      logLevel: 'silent',
    }).then((r) => r.outputFiles[0]!.text);
    // A failed build is not cached: the next request retries (and reports the error again).
    p.catch(() => bundles.delete(page));
    bundles.set(page, p);
  }
  return p;
}
