import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CloseCode, ErrorCode } from '../../protocol/index.js';
import { parley, tempDir, within } from '../helpers/processes.js';
import { CLI_GUARD_MS } from '../setup/guards.js';
import { TcpProxy } from '../helpers/tcp-proxy.js';
import { WsAgent } from '../helpers/ws-agent.js';
import { cleanCourse } from './baseline.js';
import { codesOutsideTable, course, expectServeFinished, startServe, type ServeTarget } from './serve-target.js';

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
  await expectServeFinished(t);
  const [record] = t.records();
  expect(record!.status).toBe('ok');
  expect(record!.errors).toEqual([]);
  expect(codesOutsideTable(record!)).toEqual([]);
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
    for (const path of ['/x', '/agent/', '/AGENT', '/socket.io', '/agent%00']) {
      const { reply, closedAfterMs } = await rawUpgrade(t.port, path);
      expect(reply, path).toMatch(/^HTTP\/1\.1 404 /);
      expect(closedAfterMs, path).toBeLessThan(1000);
    }
    // `/socket.io/` is the browser endpoint now (issue 13): engine.io answers a request it cannot take.
    for (const path of ['/socket.io/?EIO=4&transport=bogus', '/socket.io/?EIO=4&transport=polling']) {
      const { reply, closedAfterMs } = await rawUpgrade(t.port, path);
      expect(reply, path).toMatch(/^HTTP\/1\.1 400 /);
      expect(closedAfterMs, path).toBeLessThan(1000);
    }
    t.bot('agent1');
    t.bot('agent2');
    await expectUnharmed(t);
  });

  it('W8: serve --tokens-file writes the seat tokens owner-only and prints none; agents join with --token-file', async () => {
    const tmp = tempDir('tokens');
    cleanups.push(() => tmp.remove());
    const file = join(tmp.path, 'seat-tokens');
    const out = join(tmp.path, 'run');
    const serve = parley(['serve', '--port', '0', '--scenarios', 'builtin', '--modes', 'agents', '--limit', '1', '--out', out, '--tokens-file', file]);
    cleanups.push(() => serve.kill());
    const [, url] = await within(serve.line(/^listening (ws:\/\/\S+)/), 30_000, 'serve listens', [serve]);
    await within(serve.line(/^tokens for agent1, agent2 written to /), 15_000, 'tokens written', [serve]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines.map((l) => l.replace(/token \S+$/, 'token T'))).toEqual(['seat agent1 token T', 'seat agent2 token T']);
    const agents = lines.map((line, i) => {
      const own = join(tmp.path, `seat${i}`);
      writeFileSync(own, `${line}\n`, { mode: 0o600 });
      return parley(['agent', '--url', url!, '--token-file', own, '--policy', 'bot']);
    });
    cleanups.push(() => agents.forEach((a) => a.kill()));
    expect(await within(serve.exited, CLI_GUARD_MS, 'serve exits', [serve, ...agents])).toBe(0);
    expect(await Promise.all(agents.map((a) => a.exited))).toEqual([0, 0]);
    const tokens = lines.map((l) => l.split(' ')[3]!);
    for (const t of tokens) expect([...serve.stdout, ...serve.stderr].some((l) => l.includes(t))).toBe(false);
    const record = JSON.parse(readFileSync(join(out, 'episodes.jsonl'), 'utf8').trim());
    expect(course(record)).toEqual(await cleanCourse());
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
