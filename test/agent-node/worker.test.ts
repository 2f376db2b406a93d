import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CloseCode, WorkerToParent, type WorkerHostInput } from '../../protocol/index.js';
import { ALL_ACTIONS, startFakeOrchestrator, welcomeBody, type FakeOrchestrator } from '../../agent-node/testing/fake-orchestrator.js';
import { agentEnv } from '../../orchestrator/supervisor/agent-entry.js';
import { bundledWorker } from '../../orchestrator/supervisor/worker-bundle.js';

const WORKER = fileURLToPath(new URL('../../agent-node/worker.ts', import.meta.url));

/**
 * Forks the worker as the supervisor's pool does without the start-up snapshot (its bundle, built once by
 * test/setup/warm-bundles.ts, with the package root declared), collecting its IPC messages and stderr. Not
 * under tsx: that cost ~1.5–2.6 s of CPU to `ready` instead of ~0.3 s, and a busy machine (load 25, two
 * cores) stretched it past 8 s.
 */
async function startWorker(): Promise<{ child: ChildProcess; messages: WorkerToParent[]; stderr: () => string; ready: Promise<void> }> {
  const child = fork(await bundledWorker(WORKER), [], { execArgv: [], env: agentEnv(process.env), stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  const messages: WorkerToParent[] = [];
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  // Its first message, or its exit before one: waited for as an event, within the hook's or test's timeout.
  const ready = new Promise<void>((resolve, reject) => {
    child.once('exit', (code, signal) => reject(new Error(`worker exited (${signal ?? code}) before its first message:\n${err}`)));
    child.once('message', () => resolve());
  });
  ready.catch(() => {});
  child.on('message', (m) => messages.push(WorkerToParent.parse(m)));
  return { child, messages, stderr: () => err, ready };
}

const released = (messages: WorkerToParent[], token: string) =>
  messages.find((m): m is Extract<WorkerToParent, { type: 'released' }> => m.type === 'released' && m.token === token);

let server: FakeOrchestrator;
let worker: Awaited<ReturnType<typeof startWorker>>;

beforeAll(async () => {
  server = await startFakeOrchestrator();
  worker = await startWorker();
  await worker.ready;
  expect(worker.messages[0]).toEqual({ type: 'ready' });
});

afterAll(async () => {
  if (worker.child.exitCode === null) {
    worker.child.kill();
    await once(worker.child, 'exit');
  }
  await server.close();
});

const host = (token: string, spec = 'bot'): WorkerHostInput => ({ type: 'host', url: server.url, token, policy: { spec } });

describe('agent-node worker (forked, IPC)', () => {
  it('says ready once, hosts a seat from its own pid, plays it and reports the release', async () => {
    expect(worker.messages.filter((m) => m.type === 'ready')).toHaveLength(1);
    worker.child.send(host('tok-a'));
    const conn = await server.connection(0, 10_000);
    const join = await conn.next('seat.join', 10_000);
    expect(join.token).toBe('tok-a');
    expect(join.client.pid).toBe(worker.child.pid);
    expect(join.client.pid).not.toBe(process.pid);
    expect(join.client.policy).toBe('bot');
    conn.send(welcomeBody({ episodeId: 'ep-a', kind: 'open' }));
    conn.send({ type: 'turn.request', turn: 0, actions: [...ALL_ACTIONS], deadlineMs: 5000 });
    const act = await conn.next('turn.act');
    expect(act.turn).toBe(0);
    expect(act.action.type).toBe('speak');
    conn.send({ type: 'episode.end', reason: 'max_turns' });
    await vi.waitFor(() => expect(released(worker.messages, 'tok-a')).toEqual({ type: 'released', token: 'tok-a', ok: true }), { timeout: 5000 });
  });

  it('hosts two seats of different episodes at once and releases each on its own', async () => {
    const before = server.connections.length;
    worker.child.send(host('tok-b'));
    worker.child.send(host('tok-c'));
    const c1 = await server.connection(before, 10_000);
    const c2 = await server.connection(before + 1, 10_000);
    const joins = [await c1.next('seat.join'), await c2.next('seat.join')];
    expect(joins.map((j) => j.token).sort()).toEqual(['tok-b', 'tok-c']);
    const byToken = new Map([[joins[0]!.token, c1], [joins[1]!.token, c2]]);
    const b = byToken.get('tok-b')!;
    const c = byToken.get('tok-c')!;
    b.send(welcomeBody({ episodeId: 'ep-b' }));
    c.send(welcomeBody({ episodeId: 'ep-c', seat: 'agent2' }));
    c.send({ type: 'turn.request', turn: 1, actions: [...ALL_ACTIONS], deadlineMs: 5000 });
    expect((await c.next('turn.act')).turn).toBe(1);
    c.socket.close(CloseCode.ProtocolAbuse, 'abuse');
    await vi.waitFor(() => expect(released(worker.messages, 'tok-c')).toMatchObject({ ok: false, error: expect.stringContaining('4001') }), { timeout: 5000 });
    expect(released(worker.messages, 'tok-b')).toBeUndefined();
    b.send({ type: 'episode.end', reason: 'leave' });
    await vi.waitFor(() => expect(released(worker.messages, 'tok-b')).toMatchObject({ ok: true }), { timeout: 5000 });
  });

  it('ignores invalid IPC messages and reports an unknown policy as a failed release', async () => {
    worker.child.send({ type: 'host', url: server.url });
    worker.child.send({ type: 'dance' });
    worker.child.send(host('tok-d', 'bot:chess'));
    await vi.waitFor(() => expect(released(worker.messages, 'tok-d')).toMatchObject({ ok: false, error: expect.stringContaining('policy/unknown_spec') }), { timeout: 5000 });
    expect(worker.stderr()).toContain('ignored an invalid IPC message');
    expect(worker.child.exitCode).toBeNull();
  });

  it('exits when the IPC channel disconnects, closing its seats', async () => {
    const w = await startWorker();
    await w.ready;
    expect(w.messages[0]).toEqual({ type: 'ready' });
    const before = server.connections.length;
    w.child.send(host('tok-e'));
    const conn = await server.connection(before, 10_000);
    await conn.next('seat.join');
    const exited = once(w.child, 'exit');
    w.child.disconnect();
    const [code] = await exited;
    expect(code).toBe(0);
    await conn.closed;
  });
});
