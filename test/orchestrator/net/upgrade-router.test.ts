import { once } from 'node:events';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closeServer, createHttpServer, listen } from '../../../orchestrator/net/http-server.js';
import { upgradeRouter } from '../../../orchestrator/net/upgrade-router.js';

const servers: Array<ReturnType<typeof createHttpServer>> = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await closeServer(s);
});

function upgrade(port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1');
    let reply = '';
    s.on('data', (d) => (reply += d));
    s.on('error', reject);
    s.on('close', () => resolve(reply));
    s.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n`);
  });
}

describe('upgrade router', () => {
  it('routes registered paths (exact or prefix) and answers everything else with 404 and a closed socket', async () => {
    const server = createHttpServer();
    servers.push(server);
    const seen: string[] = [];
    const take = (name: string) => (_req: unknown, socket: import('node:stream').Duplex) => {
      seen.push(name);
      socket.end('HTTP/1.1 418 taken\r\nContent-Length: 0\r\n\r\n');
    };
    const router = upgradeRouter(server);
    router.route('/agent', take('agent'));
    // Where socket.io will register for browser seats.
    const unroute = router.route('/socket.io/', take('socket.io'), { prefix: true });
    const port = await listen(server, 0);
    expect(await upgrade(port, '/agent')).toMatch(/^HTTP\/1\.1 418/);
    expect(await upgrade(port, '/socket.io/?EIO=4&transport=websocket')).toMatch(/^HTTP\/1\.1 418/);
    for (const path of ['/x', '/agent/', '/AGENT', '/agent?x', '/']) {
      const reply = await upgrade(port, path);
      if (path === '/agent?x') expect(reply).toMatch(/^HTTP\/1\.1 418/);
      else expect(reply, path).toMatch(/^HTTP\/1\.1 404 Not Found/);
    }
    unroute();
    expect(await upgrade(port, '/socket.io/')).toMatch(/^HTTP\/1\.1 404/);
    expect(seen).toEqual(['agent', 'socket.io', 'agent']);
    expect(() => router.route('/agent', take('again'))).toThrow(/already registered/);
  });

  it('a handler that throws gets 500, and closing the server destroys upgraded sockets it still holds', async () => {
    const server = createHttpServer();
    const router = upgradeRouter(server);
    router.route('/boom', () => {
      throw new Error('bug');
    });
    let held: import('node:stream').Duplex | null = null;
    router.route('/hold', (_req, socket) => (held = socket));
    const port = await listen(server, 0);
    expect(await upgrade(port, '/boom')).toMatch(/^HTTP\/1\.1 500/);
    const client = connect(port, '127.0.0.1');
    client.on('error', () => {});
    client.write('GET /hold HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n');
    // The server reads the upgrade in this process, which a loaded CI worker can stall past the default 1 s.
    await expect.poll(() => held !== null, { timeout: 10_000 }).toBe(true);
    const closed = once(client, 'close');
    await closeServer(server);
    await closed;
    expect(held!.destroyed).toBe(true);
  });
});
