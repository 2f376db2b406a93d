import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloseCode, ErrorCode } from '../../protocol/index.js';
import { ALL_ACTIONS, startFakeOrchestrator, welcomeBody, type FakeOrchestrator } from '../../agent-node/testing/fake-orchestrator.js';

const BIN = fileURLToPath(new URL('../../bin/parley.js', import.meta.url));

/** Runs `parley agent …` as a real process; resolves with its exit code and output. */
function parleyAgent(args: string[]) {
  const child = spawn(process.execPath, [BIN, 'agent', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const exit = once(child, 'exit').then(([code]) => ({ code: code as number | null, out, err: () => err }));
  return { child, exit };
}

let server: FakeOrchestrator;
beforeAll(async () => {
  server = await startFakeOrchestrator();
});
afterAll(async () => {
  await server.close();
});

describe('parley agent', () => {
  it('plays a seat and exits 0 after a normal episode.end', async () => {
    const run = parleyAgent(['--url', server.url, '--token', 'seat-token', '--policy', 'bot']);
    const conn = await server.connection(0, 15_000);
    const join = await conn.next('seat.join', 15_000);
    expect(join.token).toBe('seat-token');
    expect(join.client.pid).toBe(run.child.pid);
    conn.send(welcomeBody({ kind: 'open' }));
    conn.send({ type: 'turn.request', turn: 0, actions: [...ALL_ACTIONS], deadlineMs: 5000 });
    expect((await conn.next('turn.act')).action.type).toBe('speak');
    conn.send({ type: 'episode.end', reason: 'leave' });
    const result = await run.exit;
    expect(result.code).toBe(0);
    expect(result.err()).toContain('episode ended (leave)');
  });

  it('exits non-zero with a clear message when the join is refused', async () => {
    const before = server.connections.length;
    const run = parleyAgent(['--url', server.url, '--token', 'nope']);
    const conn = await server.connection(before, 15_000);
    const join = await conn.next('seat.join', 15_000);
    conn.send({ type: 'error', code: ErrorCode.BadToken, message: 'unknown or used token', re: join.id });
    conn.socket.close(CloseCode.JoinRefused, 'bad token');
    const result = await run.exit;
    expect(result.code).toBe(3);
    expect(result.err()).toMatch(/refused the join \(seat\/bad_token\): unknown or used token/);
  });

  it('exits non-zero naming the URL when nothing listens there', async () => {
    const result = await parleyAgent(['--url', 'ws://127.0.0.1:1/agent', '--token', 't']).exit;
    expect(result.code).toBe(4);
    expect(result.err()).toMatch(/connection failed .*ws:\/\/127\.0\.0\.1:1\/agent.*ECONNREFUSED/);
  });

  it('rejects bad arguments and unknown policies with exit 2', async () => {
    const noToken = await parleyAgent(['--url', server.url]).exit;
    expect(noToken.code).toBe(2);
    expect(noToken.err()).toContain('--token is required');
    const badPolicy = await parleyAgent(['--url', server.url, '--token', 't', '--policy', 'bot:chess']).exit;
    expect(badPolicy.code).toBe(2);
    expect(badPolicy.err()).toContain("unknown bot 'chess'");
  });
});
