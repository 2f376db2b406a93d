import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { closeServer, createHttpServer, KEEP_ALIVE_TIMEOUT_MS, listen } from '../../../orchestrator/net/http-server.js';

const servers: Array<ReturnType<typeof createHttpServer>> = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await closeServer(s);
});

/** One GET; resolves with the response's Keep-Alive header. */
function keepAliveHint(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/', agent: false, headers: { connection: 'keep-alive' } }, (res) => {
      res.resume();
      resolve(String(res.headers['keep-alive']));
    });
    req.on('error', reject).end();
  });
}

describe('orchestrator HTTP server keep-alive', () => {
  it('keeps idle connections longer than a pooling proxy (60 s) and tells clients so', async () => {
    const server = createHttpServer();
    servers.push(server);
    const port = await listen(server, 0);
    // Node's default (5 s) made clients that reuse a connection near 5 s meet the server's close (a reset).
    expect(KEEP_ALIVE_TIMEOUT_MS).toBeGreaterThan(60_000);
    expect(await keepAliveHint(port)).toBe(`timeout=${KEEP_ALIVE_TIMEOUT_MS / 1000}`);
  });
});
