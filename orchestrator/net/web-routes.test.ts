import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { watchGate } from '../watch/watch-key.js';
import { webRoutes } from './web-routes.js';

/** Calls the routes in-process with a fake request and response; resolves with status, headers and body. */
function get(url: string, routes: ReturnType<typeof webRoutes>): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve) => {
    let status = 0;
    let headers: Record<string, unknown> = {};
    const res = {
      headersSent: false,
      writeHead(s: number, h: Record<string, unknown> = {}) {
        status = s;
        headers = h;
        return res;
      },
      end(body = '') {
        resolve({ status, headers, body: String(body) });
        return res;
      },
    };
    routes({ url, method: 'GET', headers: {} } as IncomingMessage, res as unknown as ServerResponse);
  });
}

describe('web routes', () => {
  const key = 'k'.repeat(32);
  const routes = webRoutes({ page: 'seat', watch: watchGate(key) });

  it('serves the watch page only with its key: none, a wrong one or a seat token is 403', async () => {
    for (const url of ['/watch', '/watch?key=', '/watch?key=wrong', '/watch?token=abc', `/watch?token=${key}`, `/watch?key=${key}x`]) {
      expect((await get(url, routes)).status, url).toBe(403);
    }
    const ok = await get(`/watch?key=${key}`, routes);
    expect(ok.status).toBe(200);
    expect(ok.body).toContain('/web/watch.js');
  });

  it('has no watch page when the run is not watched', async () => {
    expect((await get(`/watch?key=${key}`, webRoutes({ page: 'seat' }))).status).toBe(404);
  });

  it('serves each page with a stylesheet of its own under a CSP with no inline style or script', async () => {
    for (const page of ['seat', 'annotate', 'watch']) {
      const css = await get(`/web/${page}.css`, routes);
      expect(css.status).toBe(200);
      expect(css.headers['content-type']).toMatch(/^text\/css/);
      expect(css.body).toContain('prefers-color-scheme: dark');
    }
    const csp = String((await get('/', routes)).headers['content-security-policy']);
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
  });
});
