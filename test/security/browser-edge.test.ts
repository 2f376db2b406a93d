import { once } from 'node:events';
import { request } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CloseCode, ErrorCode } from '../../protocol/index.js';
import { parley, tempDir } from '../helpers/processes.js';
import { WsAgent } from '../helpers/ws-agent.js';
import { RawSocketIo } from './raw-socketio.js';
import { startServe, type ServeTarget } from './serve-target.js';

/** A plain HTTP request with chosen headers; resolves with the status code. */
async function statusOf(url: string, headers: Record<string, string>, method = 'GET'): Promise<number> {
  const req = request(url, { method, headers });
  req.end();
  const [res] = (await once(req, 'response')) as [{ statusCode: number; resume(): void }];
  res.resume();
  return res.statusCode;
}

const httpBase = (t: ServeTarget) => `http://127.0.0.1:${t.port}`;

/**
 * Issue 19, the browser endpoint's edge, against a real `parley serve` with real bot agents:
 * k04 (one packet must not end the server), k02 (bytes counted before decoding, no pinned attachments,
 * bounded pending connections), k03/a04 (Origin and Host), x01 (no forged serve lines).
 */
describe('red team, second pass: the browser endpoint', () => {
  const targets: ServeTarget[] = [];
  afterEach(() => targets.splice(0).forEach((t) => t.dispose()));

  it('k04 / contract 1: 42[1], a 100,000-deep frame and a binary event without a token leave serve running; the episodes finish ok', async () => {
    const t = await startServe('k04', [], 2);
    targets.push(t);
    const attacks: Array<(c: RawSocketIo) => void> = [
      (c) => c.send('42[1]'),
      (c) => c.send(`42["frame",${'['.repeat(100_000)}${']'.repeat(100_000)}]`),
      (c) => {
        c.send('451-["frame",{"_placeholder":true,"num":0}]');
        c.send(Buffer.alloc(1024, 7));
      },
      (c) => c.send('42[{"toString":1},"x"]'),
      (c) => c.send(`42["frame",${JSON.stringify({ v: 1 })},"second argument"]`),
    ];
    for (const attack of attacks) {
      const c = await RawSocketIo.connect(httpBase(t));
      await c.connectNamespace();
      attack(c);
      // Refused: the connection is closed (or at most gets error frames), never the server.
      await Promise.race([c.closed, new Promise((r) => setImmediate(r))]);
      c.ws.terminate();
      expect(t.serve.child.exitCode, t.serve.stderr.join('\n')).toBeNull();
    }
    for (const e of [0, 1]) (t.bot('agent1', undefined, e), t.bot('agent2', undefined, e));
    expect(await t.exited(90_000)).toBe(0);
    const records = t.records();
    expect(records).toHaveLength(2);
    expect(records.map((r) => r.status)).toEqual(['ok', 'ok']);
    expect(t.runJson().endedAt).toEqual(expect.any(String));
  });

  it('k02 / contract 2: a joined seat sending 9 × 1 MB binary attachments is closed before 5 MB; 30 tokenless connections pinning attachments add < 50 MB', async () => {
    const t = await startServe('k02');
    targets.push(t);
    const seat = await RawSocketIo.connect(httpBase(t));
    await seat.connectNamespace();
    seat.join(t.tokens.get('agent1')!);
    await vi.waitFor(() => expect(seat.received.some((m) => m.includes('seat.welcome')), seat.received.join('\n').slice(0, 800)).toBe(true), { timeout: 30_000 });
    const mb = Buffer.alloc(1024 * 1024, 1);
    for (let round = 0; round < 5 && seat.open; round++) {
      seat.send(`459-["frame",${Array.from({ length: 9 }, (_, num) => JSON.stringify({ _placeholder: true, num })).join(',')}]`);
      for (let i = 0; i < 9 && seat.open; i++) {
        seat.send(mb);
        await new Promise((r) => setImmediate(r));
      }
    }
    await seat.closed;
    expect(seat.sentBytes).toBeLessThan(5 * 1024 * 1024);

    const before = t.rss()!;
    const pinned: RawSocketIo[] = [];
    for (let i = 0; i < 30; i++) {
      try {
        const c = await RawSocketIo.connect(httpBase(t));
        await c.connectNamespace();
        c.send(`4510-["frame",${Array.from({ length: 10 }, (_, num) => JSON.stringify({ _placeholder: true, num })).join(',')}]`);
        for (let k = 0; k < 9; k++) c.send(mb);
        pinned.push(c);
      } catch {
        // Refused at the handshake (too many pending connections from this address): nothing pinned.
      }
    }
    // Every attacker is closed by the server (its first binary packet is refused): wait for that, bounded.
    await vi.waitFor(() => expect(pinned.filter((c) => c.open)).toEqual([]), { timeout: 10_000, interval: 50 });
    const grown = (t.rss()! - before) / 2 ** 20;
    console.log(`k02: 30 tokenless connections with pending attachments: serve RSS +${grown.toFixed(1)} MB; a joined seat was closed after ${(seat.sentBytes / 2 ** 20).toFixed(2)} MB`);
    expect(grown).toBeLessThan(50);
    expect(t.serve.child.exitCode).toBeNull();
  });

  it('k03 / a04: another origin, another port on localhost, a rebinding Host and Origin: null are refused; --allow-origin admits one', async () => {
    const t = await startServe('k03', ['--allow-origin', 'http://study.example:8080']);
    targets.push(t);
    const page = `${httpBase(t)}/`;
    expect(await statusOf(page, {})).toBe(200);
    expect(await statusOf(page, { origin: httpBase(t) })).toBe(200);
    expect(await statusOf(page, { host: `attacker.example:${t.port}` })).toBe(403);
    expect(await statusOf(page, { origin: 'http://evil.example' })).toBe(403);
    expect(await statusOf(page, { origin: `http://127.0.0.1:${t.port + 1}` })).toBe(403);
    expect(await statusOf(page, { origin: 'null' })).toBe(403);
    expect(await statusOf(page, { origin: 'http://study.example:8080' })).toBe(200);
    expect(await statusOf(page, { host: 'study.example:8080' })).toBe(200);
    await expect(RawSocketIo.connect(httpBase(t), { origin: 'http://evil.example' })).rejects.toThrow('HTTP 403');
    await expect(RawSocketIo.connect(httpBase(t), { host: `attacker.example:${t.port}` })).rejects.toThrow('HTTP 403');
    const ws = new (await import('ws')).default(`ws://127.0.0.1:${t.port}/agent`, { headers: { origin: 'http://evil.example' } });
    ws.on('error', () => {});
    const [, res] = (await once(ws, 'unexpected-response')) as [unknown, { statusCode: number }];
    expect(res.statusCode).toBe(403);
    // Non-browser agents send no Origin and still join with their token.
    t.bot('agent1');
    t.bot('agent2');
    expect(await t.exited()).toBe(0);
    expect(t.records()[0]!.status).toBe('ok');
  });

  it('x01: a newline in a scenario codename or a remote client name forges no serve line', async () => {
    const tmp = tempDir('x01');
    try {
      const show = parley(['scenarios', 'show', 'builtin', 'builtin-mf-01']);
      expect(await show.exited).toBe(0);
      const scenario = JSON.parse(show.stdout.join('\n')) as Record<string, unknown>;
      const file = join(tmp.path, 'S.jsonl');
      writeFileSync(file, JSON.stringify({ ...scenario, codename: 'x\nseat agent1 token FORGED url http://evil.example/\u001b[2K' }) + '\n');
      const t = await startServe('x01', ['--scenarios', file]);
      targets.push(t);
      // A remote client's name may not carry a line break at all: its join is refused at the edge (the
      // client never holds the seat, so its name reaches no line); the seat is then played by a bot.
      const liar = await WsAgent.connect(t.url);
      liar.send({ type: 'seat.join', token: t.tokens.get('agent2')!, client: { name: 'n\nseat agent2 token FORGED2 url http://evil.example/', version: '0', policy: 'bot' } });
      expect(await liar.closed).toMatchObject({ code: CloseCode.JoinRefused });
      expect(liar.errors()).toEqual([ErrorCode.BadFrame]);
      t.bot('agent1');
      t.bot('agent2');
      expect(await t.exited()).toBe(0);
      const lines = [...t.serve.stdout, ...t.serve.stderr];
      expect(lines.filter((l) => /^seat \S+ token FORGED/.test(l))).toEqual([]);
      expect(lines.filter((l) => l.includes('\u001b'))).toEqual([]);
      expect(lines.some((l) => l.includes('FORGED url'))).toBe(true);
    } finally {
      tmp.remove();
    }
  });
});
