import { connect } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CloseCode, ErrorCode } from '../../protocol/index.js';
import { TcpProxy } from '../helpers/tcp-proxy.js';
import { WsAgent } from '../helpers/ws-agent.js';
import { cleanCourse } from './baseline.js';
import { course, startServe, type ServeTarget } from './serve-target.js';

/**
 * Red team, part 1: attacks from outside the game (stray upgrades, guessed tokens, a stolen token)
 * against a real `parley serve` with real bot agents. Each case asserts the coded outcome and that the
 * game came out turn for turn identical to a clean run, with serve exiting 0 and run.json finished.
 */
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

async function target(name: string): Promise<ServeTarget> {
  const t = await startServe(name);
  cleanups.push(() => t.dispose());
  return t;
}

/** serve exited 0, run.json is finished, the one game is unharmed. */
async function expectUnharmed(t: ServeTarget): Promise<void> {
  expect(await t.exited()).toBe(0);
  const run = t.runJson();
  expect(run.endedAt).toEqual(expect.any(String));
  expect(run.stats).not.toBeNull();
  const [record] = t.records();
  expect(record!.status).toBe('ok');
  expect(record!.errors).toEqual([]);
  expect(course(record!)).toEqual(await cleanCourse());
}

/** A raw HTTP upgrade request; resolves with what came back and how long until the socket closed. */
function rawUpgrade(port: number, path: string): Promise<{ reply: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const s = connect(port, '127.0.0.1');
    let reply = '';
    s.on('data', (d) => (reply += d.toString('latin1')));
    s.on('error', reject);
    s.on('close', () => resolve({ reply, closedAfterMs: performance.now() - started }));
    s.setTimeout(5_000, () => s.destroy());
    s.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`);
  });
}

describe('red team: attacks from outside the game', () => {
  it('F1 / contract 1: every stray upgrade gets 404 and a closed socket within a second; serve then exits 0 with run.json finished', async () => {
    const t = await target('upgrade');
    for (const path of ['/x', '/agent/', '/AGENT', '/socket.io/?EIO=4&transport=websocket', '/agent%00']) {
      const { reply, closedAfterMs } = await rawUpgrade(t.port, path);
      expect(reply, path).toMatch(/^HTTP\/1\.1 404 /);
      expect(closedAfterMs, path).toBeLessThan(1000);
    }
    t.bot('agent1');
    t.bot('agent2');
    await expectUnharmed(t);
  });

  it('guessed tokens: seat/bad_token, then seat/rate_limited after repeated failures, logged with the address; the agents still play', async () => {
    const t = await target('guess');
    const codes: string[] = [];
    for (let i = 0; i < 6; i++) {
      const guess = await WsAgent.connect(t.url);
      cleanups.push(() => guess.close());
      guess.join(`guess${i}xxxxxxxxxxxxxxxxxxx`);
      expect(await guess.closed).toMatchObject({ code: CloseCode.JoinRefused });
      codes.push(...guess.errors());
    }
    expect(codes).toEqual([...Array(5).fill(ErrorCode.BadToken), ErrorCode.RateLimited]);
    expect(t.serve.stdout.filter((l) => l.startsWith('join refused from 127.0.0.1: seat/bad_token'))).toHaveLength(5);
    // No line of serve's output carries a guessed token (only the address and the code).
    expect(t.serve.stdout.some((l) => l.includes('guess0'))).toBe(false);
    // The real agents share the address: they wait out the back-off and play.
    t.bot('agent1');
    t.bot('agent2');
    await expectUnharmed(t);
  });

  it('W4 / contract 3: after a drop, the join token is refused (seat/token_spent); the real agent resumes with its secret and the record shows the rejoin', async () => {
    const t = await target('theft');
    const proxy = await TcpProxy.start(t.port);
    cleanups.push(() => proxy.close());
    const a = t.bot('agent1', t.url.replace(`:${t.port}/`, `:${proxy.port}/`));
    await vi.waitFor(() => {
      if (!t.serve.stdout.some((l) => l.startsWith('joined: ') && l.includes('/agent1 by pid'))) throw new Error('A not joined yet');
    }, { timeout: 20_000 });
    // Cut A's connection; its reconnect is held at the proxy while a thief presents A's token.
    proxy.cut();
    const thief = await WsAgent.connect(t.url);
    cleanups.push(() => thief.close());
    thief.join(t.tokens.get('agent1')!, a.child.pid);
    expect(await thief.closed).toMatchObject({ code: CloseCode.JoinRefused });
    expect(thief.errors()).toEqual([ErrorCode.TokenSpent]);
    expect(thief.frames.some((f) => f.type === 'seat.welcome')).toBe(false);
    proxy.release();
    t.bot('agent2');
    await expectUnharmed(t);
    expect(await a.exited).toBe(0);
    const [record] = t.records();
    const events = record!.seatEvents!.filter((e) => e.seat === 'agent1').map((e) => `${e.kind}${e.code ? ` ${e.code}` : ''}`);
    expect(events).toEqual(['down', `join_refused ${ErrorCode.TokenSpent}`, 'rejoined']);
    expect(record!.seats.find((s) => s.seat === 'agent1')!.pids).toEqual([a.child.pid]);
    expect(t.serve.stdout.some((l) => l.startsWith('rejoined: ') && l.includes('/agent1 by pid'))).toBe(true);
  });
});
