import type { IncomingMessage, ServerResponse } from 'node:http';
import { pageHtml, pageScript, type WebPage } from '../../web/assets.js';
import type { RequestHandler } from './http-server.js';

const SECURITY_HEADERS = {
  // Only this server's own script and socket; no framing by other sites.
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/**
 * Plain HTTP routes of the orchestrator's server: the page at `/` (`/?token=T` opens a seat; `page`
 * chooses which page `/` is), its script at `/web/<page>.js`, anything under `/socket.io/` to the
 * socket.io endpoint (which refuses polling), `extra` routes of a command (annotation answers), and 404
 * for the rest.
 */
export function webRoutes(opts: { page: WebPage; socketIo?: RequestHandler; extra?: (req: IncomingMessage, res: ServerResponse) => boolean }): RequestHandler {
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path.startsWith('/socket.io/') && opts.socketIo) return opts.socketIo(req, res);
    if (opts.extra?.(req, res)) return;
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, { allow: 'GET' }).end();
    if (path === '/' || path === '/index.html') {
      return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...SECURITY_HEADERS }).end(pageHtml(opts.page));
    }
    const script = /^\/web\/(seat|annotate)\.js$/.exec(path);
    if (script) {
      pageScript(script[1] as WebPage).then(
        (js) => res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', ...SECURITY_HEADERS }).end(js),
        (err: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`page build failed: ${err.message}\n`),
      );
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
  };
}
