import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { join } from 'node:path';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { WsClient, WsState } from '../../agent-node/ws/ws-client.js';
import { tempDir } from '../../testkit/processes.js';

/** What a client reported, in order. */
function recorder() {
  const events: Array<{ kind: string; text?: string; code?: number; reason?: string; message?: string }> = [];
  let resolveClosed!: () => void;
  const closed = new Promise<void>((r) => (resolveClosed = r));
  let resolveSettled!: () => void;
  /** The handshake's end: open, or an error (a close follows). */
  const settled = new Promise<void>((r) => (resolveSettled = r));
  const listeners = {
    open: () => {
      events.push({ kind: 'open' });
      resolveSettled();
    },
    message: (data: Buffer) => events.push({ kind: 'message', text: data.toString('utf8') }),
    error: (err: Error) => {
      events.push({ kind: 'error', message: err.message });
      resolveSettled();
    },
    close: (code: number, reason: string) => {
      events.push({ kind: 'close', code, reason });
      resolveSettled();
      resolveClosed();
    },
  };
  return { events, listeners, closed, settled };
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** `ws`'s own server on port 0: the orchestrator's side of every seat connection. */
async function wsServer(): Promise<{ url: string; next: () => Promise<WebSocket> }> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await once(wss, 'listening');
  cleanups.push(() => new Promise<void>((r) => {
    for (const c of wss.clients) c.terminate();
    wss.close(() => r());
  }));
  return { url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/agent`, next: async () => (await once(wss, 'connection'))[0] as WebSocket };
}

/** A raw TCP server whose answer to the opening request a test writes by hand. */
async function rawServer(answer: (socket: Socket, key: string) => void): Promise<string> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    let head = '';
    socket.on('data', (chunk) => {
      if (head.includes('\r\n\r\n')) return;
      head += chunk.toString('latin1');
      const key = /Sec-WebSocket-Key: (\S+)/.exec(head)?.[1];
      if (head.includes('\r\n\r\n') && key) answer(socket, key);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(() => new Promise<void>((r) => {
    for (const s of sockets) s.destroy();
    server.close(() => r());
  }));
  return `ws://127.0.0.1:${(server.address() as AddressInfo).port}/agent`;
}

const accepted = (key: string) =>
  'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
  `Sec-WebSocket-Accept: ${createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64')}\r\n\r\n`;

const open = (url: string, r: ReturnType<typeof recorder>, handshakeTimeoutMs = 5000) => {
  const client = new WsClient(url, { maxPayload: 256 * 1024, handshakeTimeoutMs }, r.listeners);
  cleanups.push(() => client.terminate());
  return client;
};

describe('WsClient against ws\'s server', () => {
  it('opens, exchanges text both ways (a 200 KB message and a fragmented one), answers ping and closes with our code', async () => {
    const server = await wsServer();
    const r = recorder();
    const client = open(server.url, r);
    const peer = await server.next();
    await vi.waitFor(() => expect(client.readyState).toBe(WsState.Open));
    expect(client.send('{"hello":"é"}')).toBe(true);
    const [got, isBinary] = await once(peer, 'message');
    expect([got.toString(), isBinary]).toEqual(['{"hello":"é"}', false]);
    const big = 'x'.repeat(200_000);
    peer.send(big);
    peer.send('frag', { fin: false });
    peer.send('mented', { fin: true });
    peer.ping('hb');
    const [pong] = await once(peer, 'pong');
    expect(pong.toString()).toBe('hb');
    await vi.waitFor(() => expect(r.events.filter((e) => e.kind === 'message').map((e) => e.text)).toEqual([big, 'fragmented']));
    client.close(1000, 'episode ended');
    const [code, reason] = await once(peer, 'close');
    expect([code, reason.toString()]).toEqual([1000, 'episode ended']);
    await r.closed;
    expect(r.events.at(-1)).toEqual({ kind: 'close', code: 1000, reason: 'episode ended' });
    expect(client.send('late')).toBe(false);
  });

  it('reports the server\'s close code and reason, and answers its close frame', async () => {
    const server = await wsServer();
    const r = recorder();
    open(server.url, r);
    const peer = await server.next();
    peer.close(4007, 'replaced');
    const [code] = await once(peer, 'close');
    expect(code).toBe(4007);
    await r.closed;
    expect(r.events).toEqual([{ kind: 'open' }, { kind: 'close', code: 4007, reason: 'replaced' }]);
  });

  it('reports a connection dropped without a close frame as 1006', async () => {
    const server = await wsServer();
    const r = recorder();
    open(server.url, r);
    (await server.next()).terminate();
    await r.closed;
    expect(r.events.at(-1)).toMatchObject({ kind: 'close', code: 1006 });
  });
});

describe('WsClient when the peer resets the connection', () => {
  it('reports a reset after the connection opened as close 1006 alone, no error (as ws does)', async () => {
    let peer: Socket | undefined;
    const url = await rawServer((socket, key) => {
      peer = socket;
      socket.write(accepted(key));
    });
    const r = recorder();
    const client = open(url, r);
    await vi.waitFor(() => expect(client.readyState).toBe(WsState.Open), { timeout: 5000 });
    // Our next frame reaches a socket the peer reset: the read fails with ECONNRESET.
    peer!.resetAndDestroy();
    await r.closed;
    expect(r.events.map((e) => e.kind)).toEqual(['open', 'close']);
    expect(r.events.at(-1)).toMatchObject({ kind: 'close', code: 1006 });
  });
});

describe('WsClient against a server that breaks the rules', () => {
  it('fails a masked server frame with 1002: an error, its close frame to the server, then close', async () => {
    const got: Buffer[] = [];
    const url = await rawServer((socket, key) => {
      socket.on('data', (b) => got.push(b));
      // The answer and a masked frame in one write: the bytes after the head go to the frame reader.
      socket.write(Buffer.concat([Buffer.from(accepted(key)), Buffer.from([0x81, 0x81, 1, 2, 3, 4, 0x79])]));
    });
    const r = recorder();
    open(url, r);
    await r.closed;
    expect(r.events.map((e) => e.kind)).toEqual(['open', 'error', 'close']);
    expect(r.events[1]!.message).toMatch(/must not be masked/);
    expect(r.events[2]).toMatchObject({ code: 1002 });
    const closeFrame = Buffer.concat(got);
    expect(closeFrame[0]).toBe(0x88);
    const mask = closeFrame.subarray(2, 6);
    expect(((closeFrame[6]! ^ mask[0]!) << 8) | (closeFrame[7]! ^ mask[1]!)).toBe(1002);
  });

  it('refuses a wrong Sec-WebSocket-Accept and a 404 (error, then close 1006; never open)', async () => {
    for (const [answer, message] of [
      [(s: Socket) => s.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: AAAA\r\n\r\n'), /Accept/],
      [(s: Socket) => s.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n'), /Unexpected server response: 404/],
    ] as const) {
      const r = recorder();
      open(await rawServer(answer), r);
      await r.closed;
      expect(r.events.map((e) => e.kind)).toEqual(['error', 'close']);
      expect(r.events[0]!.message).toMatch(message);
      expect(r.events[1]).toMatchObject({ code: 1006 });
    }
  });

  it('reports a server that hangs up before its answer is whole as an error (as ws: "socket hang up"), then 1006', async () => {
    for (const answer of [(s: Socket) => s.end(), (s: Socket) => s.end('HTTP/1.1 101 Switching')]) {
      const r = recorder();
      open(await rawServer(answer), r);
      await r.closed;
      expect(r.events.map((e) => [e.kind, e.message ?? e.code])).toEqual([['error', 'The server closed the connection before the opening handshake completed'], ['close', 1006]]);
    }
  });

  it('reads the frame that came with the answer even when the open listener starts closing', async () => {
    // The server's close frame: 4007 "x", its first two bytes sent with the answer, the rest once our
    // close frame arrived. The old client dropped those two bytes and read the rest as a frame of its own.
    const url = await rawServer((socket, key) => {
      socket.write(Buffer.concat([Buffer.from(accepted(key)), Buffer.from([0x88, 0x03])]));
      socket.on('data', () => socket.end(Buffer.from([0x0f, 0xa7, 0x78])));
    });
    const r = recorder();
    const client: WsClient = new WsClient(url, { maxPayload: 1024, handshakeTimeoutMs: 5000 }, { ...r.listeners, open: () => {
      r.listeners.open();
      client.close(1000, 'done');
    } });
    cleanups.push(() => client.terminate());
    await r.closed;
    expect(r.events).toEqual([{ kind: 'open' }, { kind: 'close', code: 4007, reason: 'x' }]);
  });

  it('gives up on a server that never answers the opening request', async () => {
    const r = recorder();
    open(await rawServer(() => {}), r, 200);
    await r.closed;
    expect(r.events.map((e) => [e.kind, e.message ?? e.code])).toEqual([['error', 'Opening handshake has timed out'], ['close', 1006]]);
  });

  it('waits answerTimeoutMs, not handshakeTimeoutMs, for the answer of a server that took the connection (a busy orchestrator)', async () => {
    // Only setTimeout is faked: the client's handshake timers, which move only when the test says so.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    cleanups.push(() => void vi.useRealTimers());
    const r = recorder();
    const url = await rawServer((socket, key) => {
      // The request is here, so the client is connected: its 20 ms for the connection pass, then the answer comes.
      vi.advanceTimersByTime(1_000);
      socket.write(accepted(key));
    });
    const client = new WsClient(url, { maxPayload: 1024, handshakeTimeoutMs: 20, answerTimeoutMs: 5_000 }, r.listeners);
    cleanups.push(() => client.terminate());
    await r.settled;
    expect(r.events).toEqual([{ kind: 'open' }]);
    // The answer's own time still ends a server that never answers.
    const silent = recorder();
    const waiting = new WsClient(await rawServer(() => vi.advanceTimersByTime(5_000)), { maxPayload: 1024, handshakeTimeoutMs: 20, answerTimeoutMs: 5_000 }, silent.listeners);
    cleanups.push(() => waiting.terminate());
    await silent.closed;
    expect(silent.events.map((e) => [e.kind, e.message ?? e.code])).toEqual([['error', 'Opening handshake has timed out'], ['close', 1006]]);
  });

  it('reads an answer that came while the process was busy before giving up on the handshake (timers run before sockets are read)', async () => {
    const realTimeout = globalThis.setTimeout;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    cleanups.push(() => void vi.useRealTimers());
    const r = recorder();
    const url = await rawServer((socket, key) => {
      socket.write(accepted(key));
      // The answer is in the client's socket, unread. The handshake's time runs out at the start of the
      // loop's next turn (a real timer, due before the loop reads sockets again), as in an agent process
      // that was busy or starved of CPU while its answer came.
      realTimeout(() => vi.advanceTimersByTime(10_000), 0);
      const due = performance.now() + 3;
      while (performance.now() < due);
    });
    const client = new WsClient(url, { maxPayload: 1024, handshakeTimeoutMs: 10_000 }, r.listeners);
    cleanups.push(() => client.terminate());
    await r.settled;
    expect(r.events).toEqual([{ kind: 'open' }]);
  });

  it('reports a refused connection as an error and 1006', async () => {
    const url = await rawServer(() => {});
    cleanups.splice(0).reverse().forEach((c) => void c());
    await new Promise((r) => setImmediate(r));
    const r = recorder();
    open(url, r);
    await r.closed;
    expect(r.events.map((e) => e.kind)).toEqual(['error', 'close']);
    expect(r.events[0]!.message).toMatch(/ECONNREFUSED/);
  });

  it('refuses a URL that is not ws: or wss:', () => {
    expect(() => new WsClient('http://127.0.0.1/agent', { maxPayload: 1, handshakeTimeoutMs: 1 }, recorder().listeners)).toThrow(/ws:/);
  });
});

describe('WsClient against a server that sends and never reads', () => {
  it('stops reading while its answers wait unsent (a ping flood keeps its memory bounded) and answers every ping once the server reads', async () => {
    // 8 MB of pings: more than loopback's kernel buffers take both ways, so the answers pile up in the
    // client unless it stops reading (the old client held ~4.5 MB of pongs; ~13 MB of a 16 MB flood).
    const pings = 64 * 1024;
    const ping = Buffer.concat([Buffer.from([0x89, 125]), Buffer.alloc(125, 0x70)]);
    let peer: Socket | undefined;
    let received = 0;
    const url = await rawServer((socket, key) => {
      peer = socket;
      socket.write(accepted(key));
      socket.pause();
      socket.on('data', (b) => (received += b.length));
      const burst = Buffer.concat(Array.from({ length: 1024 }, () => ping));
      for (let i = 0; i < pings / 1024; i++) socket.write(burst);
    });
    const r = recorder();
    const client = open(url, r);
    let maxBuffered = 0;
    let last = -1;
    let still = 0;
    // Until the client's unsent bytes, once there are any (the kernel's buffers are full), stop changing:
    // it stopped reading, or it read the whole flood.
    await vi.waitFor(() => {
      const now = client.bufferedAmount;
      maxBuffered = Math.max(maxBuffered, now);
      still = now > 0 && now === last ? still + 1 : 0;
      last = now;
      expect(still).toBeGreaterThanOrEqual(5);
    }, { timeout: 60_000, interval: 20 });
    expect(maxBuffered).toBeLessThan(1024 * 1024);
    expect(client.readyState).toBe(WsState.Open);
    // Once the server reads, so does the client: every ping is answered.
    peer!.resume();
    const pongBytes = pings * (2 + 4 + 125);
    await vi.waitFor(() => expect(received).toBeGreaterThanOrEqual(pongBytes), { timeout: 60_000, interval: 20 });
    expect(received).toBe(pongBytes);
    expect(r.events.map((e) => e.kind)).toEqual(['open']);
  });
});

/** A throwaway self-signed certificate, made here (no key is kept in the repository); null without openssl. */
function selfSigned(): { key: Buffer; cert: Buffer } | null {
  const dir = tempDir('ws-tls');
  cleanups.push(() => dir.remove());
  const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', join(dir.path, 'key.pem'), '-out', join(dir.path, 'cert.pem'), '-days', '1', '-subj', '/CN=localhost'], { stdio: 'ignore' });
  if (made.status !== 0) return null;
  return { key: readFileSync(join(dir.path, 'key.pem')), cert: readFileSync(join(dir.path, 'cert.pem')) };
}

const hasOpenssl = spawnSync('openssl', ['version'], { stdio: 'ignore' }).status === 0;

describe.skipIf(!hasOpenssl)('WsClient over wss: (needs openssl to make a certificate; skipped without it)', () => {
  it('speaks TLS to a wss: URL and verifies the server\'s certificate: a self-signed one is refused before the handshake', async () => {
    const pair = selfSigned()!;
    const server = createHttpsServer(pair);
    const wss = new WebSocketServer({ server });
    let upgraded = false;
    wss.on('connection', () => (upgraded = true));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
    const r = recorder();
    open(`wss://localhost:${(server.address() as AddressInfo).port}/agent`, r);
    await r.closed;
    expect(r.events.map((e) => e.kind)).toEqual(['error', 'close']);
    expect(r.events[0]!.message).toMatch(/self-signed certificate/);
    expect(upgraded).toBe(false);
  });
});
