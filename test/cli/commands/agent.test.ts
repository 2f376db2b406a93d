import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloseCode, ErrorCode } from '../../../protocol/index.js';
import { ALL_ACTIONS, startFakeOrchestrator, welcomeBody, type FakeOrchestrator } from '../../../agent-node/testing/fake-orchestrator.js';

const BIN = fileURLToPath(new URL('../../../bin/parley.js', import.meta.url));

/** Runs `parley agent …` as a real process; resolves with its exit code and output. */
function parleyAgent(args: string[], o: { env?: NodeJS.ProcessEnv; stdin?: string } = {}) {
  const child = spawn(process.execPath, [BIN, 'agent', ...args], { stdio: [o.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'], env: { ...process.env, PARLEY_SEAT_TOKEN: undefined, ...o.env } });
  if (o.stdin !== undefined) child.stdin!.end(o.stdin);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exit = once(child, 'exit').then(([code]) => ({ code: code as number | null, out, err: () => err }));
  return { child, exit };
}

/** Pids whose command line (/proc/<pid>/cmdline) contains `text`. */
function commandLinesContaining(text: string): number[] {
  const hits: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(text)) hits.push(Number(name));
    } catch {
      // The process ended meanwhile, or is not ours to read.
    }
  }
  return hits;
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

  it('takes the token from --token-file, standard input or $PARLEY_SEAT_TOKEN, never showing it in a command line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-token-'));
    try {
      const file = join(dir, 'tokens');
      writeFileSync(file, 'seat A token FileToken0123456789abcdef\n', { mode: 0o600 });
      const cases: Array<{ args: string[]; env?: NodeJS.ProcessEnv; stdin?: string; token: string }> = [
        { args: ['--token-file', file], token: 'FileToken0123456789abcdef' },
        { args: ['--token-file', '-'], stdin: 'StdinToken0123456789abcde\n', token: 'StdinToken0123456789abcde' },
        { args: [], env: { PARLEY_SEAT_TOKEN: 'EnvToken0123456789abcdefg' }, token: 'EnvToken0123456789abcdefg' },
      ];
      for (const c of cases) {
        const before = server.connections.length;
        const run = parleyAgent(['--url', server.url, ...c.args, '--policy', 'bot'], c);
        const conn = await server.connection(before, 15_000);
        const join = await conn.next('seat.join', 15_000);
        expect(join.token).toBe(c.token);
        // Contract 5: the token is in no process's command line while the agent holds the seat.
        expect(commandLinesContaining(c.token)).toEqual([]);
        conn.send({ type: 'episode.end', reason: 'leave' });
        expect((await run.exit).code).toBe(0);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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

  it('dials a wss:// URL through https (loaded on first use in the bundle) and reports the same failure', async () => {
    const result = await parleyAgent(['--url', 'wss://127.0.0.1:1/agent', '--token', 't']).exit;
    expect(result.code).toBe(4);
    expect(result.err()).toMatch(/connection failed .*wss:\/\/127\.0\.0\.1:1\/agent.*ECONNREFUSED/);
    expect(result.err()).not.toMatch(/TypeError|is not a function|undefined/);
  });

  it('rejects bad arguments and unknown policies with exit 2', async () => {
    const noToken = await parleyAgent(['--url', server.url]).exit;
    expect(noToken.code).toBe(2);
    expect(noToken.err()).toContain('a seat token is required: --token-file FILE');
    const twoWays = await parleyAgent(['--url', server.url, '--token', 't', '--token-file', '/dev/null']).exit;
    expect(twoWays.code).toBe(2);
    expect(twoWays.err()).toContain('give the seat token one way only');
    const badPolicy = await parleyAgent(['--url', server.url, '--token', 't', '--policy', 'bot:chess']).exit;
    expect(badPolicy.code).toBe(2);
    expect(badPolicy.err()).toContain("unknown bot 'chess'");
  });
});
