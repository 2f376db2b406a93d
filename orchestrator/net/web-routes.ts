import type { IncomingMessage, ServerResponse } from 'node:http';
import { pageHtml, pageScript, pageStyle, WEB_PAGES, type WebPage } from '../../web/assets.js';
import type { RequestHandler } from './http-server.js';

const SECURITY_HEADERS = {
  // Only this server's own script, stylesheet and socket; no inline code or style, no framing by other sites.
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** Who may open the watch page (watch-access.ts): the run's secret key, nothing else. */
export interface WatchGate {
  allows(key: string | null): boolean;
}

export interface WebRouteOptions {
  page: WebPage;
  socketIo?: RequestHandler;
  extra?: (req: IncomingMessage, res: ServerResponse) => boolean;
  watch?: WatchGate;
  /** Other pages at fixed paths (a study serves its seat page at `/seat`, its organiser page at `/organiser`). */
  also?: Readonly<Record<string, WebPage>>;
}

/**
 * Plain HTTP routes of the orchestrator's server: the page at `/` (`/?token=T` opens a seat; `page`
 * chooses which page `/` is), its script and stylesheet at `/web/<page>.js|.css`, the watch page at
 * `/watch?key=K` when a run is watched (403 without the key), anything under `/socket.io/` to the
 * socket.io endpoint (which refuses polling), `extra` routes of a command (annotation answers), and 404
 * for the rest.
 */
export function webRoutes(opts: WebRouteOptions): RequestHandler {
  const routes = pageRoutes(opts);
  // A page that cannot be read (a broken install) is a 500 for that request, never the end of the server.
  return (req, res) => {
    try {
      routes(req, res);
    } catch (err) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('page failed\n');
    }
  };
}

function pageRoutes(opts: WebRouteOptions): RequestHandler {
  return (req, res) => {
    const [path = '/', query = ''] = (req.url ?? '/').split('?');
    if (path.startsWith('/socket.io/') && opts.socketIo) return opts.socketIo(req, res);
    if (opts.extra?.(req, res)) return;
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, { allow: 'GET' }).end();
    const html = (page: WebPage) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...SECURITY_HEADERS }).end(pageHtml(page));
    if (path === '/' || path === '/index.html') return html(opts.page);
    const also = opts.also && Object.hasOwn(opts.also, path) ? opts.also[path] : undefined;
    if (also) return html(also);
    // Browsers ask for it on every page: no icon, and no 404 in the console.
    if (path === '/favicon.ico') return void res.writeHead(204, SECURITY_HEADERS).end();
    if (path === '/watch' && opts.watch) {
      // The key is the only way in: a seat token, a missing or a wrong key are all the same 403.
      if (!opts.watch.allows(new URLSearchParams(query).get('key'))) return void res.writeHead(403, { 'content-type': 'text/plain', ...SECURITY_HEADERS }).end('forbidden: this page needs the watch url printed by the run (…/watch?key=…)\n');
      return html('watch');
    }
    const asset = /^\/web\/([a-z]+)\.(css|js)$/.exec(path);
    const page = asset && (WEB_PAGES as readonly string[]).includes(asset[1]!) ? (asset[1] as WebPage) : null;
    if (page && asset![2] === 'css') return void res.writeHead(200, { 'content-type': 'text/css; charset=utf-8', ...SECURITY_HEADERS }).end(pageStyle(page));
    if (page) {
      pageScript(page).then(
        (js) => res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', ...SECURITY_HEADERS }).end(js),
        (err: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`page build failed: ${err.message}\n`),
      );
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
  };
}
