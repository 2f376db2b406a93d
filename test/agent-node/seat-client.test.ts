import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CloseCode, ErrorCode, type Action, type ScriptRequest, type TurnRequest } from '../../protocol/index.js';
import type { MoveResult, Policy, SeatView } from '../../agent-node/policy.js';
import { playSeat, type SeatSession } from '../../agent-node/seat-client.js';
import { ALL_ACTIONS, startFakeOrchestrator, welcomeBody, type FakeOrchestrator } from '../../agent-node/testing/fake-orchestrator.js';

/** A policy that says what turn it is and remembers the views it was given. */
function echoPolicy(): Policy & { views: SeatView[] } {
  const views: SeatView[] = [];
  return {
    spec: 'test:echo',
    views,
    async act(view, request): Promise<MoveResult> {
      views.push(view);
      const action: Action = { type: 'speak', argument: `turn ${request.turn}, ${view.events.length} events` };
      return { ok: true, action, meta: { policy: 'test:echo', latencyMs: 1 } };
    },
  };
}

const request = (turn: number, deadlineMs = 5000): Omit<TurnRequest, 'v' | 'id'> => ({ type: 'turn.request', turn, actions: [...ALL_ACTIONS], deadlineMs });

let server: FakeOrchestrator;
const sessions: SeatSession[] = [];
const play = (policy: Policy, token = 'tok-1', extra: Partial<Parameters<typeof playSeat>[0]> = {}) => {
  const s = playSeat({ url: server.url, token, policy, reconnect: { baseDelayMs: 20, maxDelayMs: 50 }, ...extra });
  sessions.push(s);
  return s;
};

beforeEach(async () => {
  server = await startFakeOrchestrator();
});
afterEach(async () => {
  vi.useRealTimers();
  for (const s of sessions.splice(0)) s.close('test over');
  await server.close();
});

describe('seat client', () => {
  it('joins first with the token, policy spec and its pid', async () => {
    play(echoPolicy());
    const conn = await server.connection(0);
    const join = await conn.next('seat.join');
    expect(conn.received[0]).toEqual(join);
    expect(join.token).toBe('tok-1');
    expect(join.client).toMatchObject({ name: 'parley-agent', policy: 'test:echo', pid: process.pid });
    expect(join.client.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('answers ping with pong carrying the same nonce', async () => {
    play(echoPolicy());
    const conn = await server.connection(0);
    await conn.next('seat.join');
    conn.send({ type: 'ping', nonce: 'n-42' });
    expect((await conn.next('pong')).nonce).toBe('n-42');
  });

  it('answers turn.request with turn.act for the same turn, from a view built of the frames it received', async () => {
    const policy = echoPolicy();
    play(policy);
    const conn = await server.connection(0);
    await conn.next('seat.join');
    conn.send(welcomeBody());
    conn.send({ type: 'peer.state', reason: 'mindreaders', state: { seat: 'agent2', profile: {}, goal: 'their goal', hints: [], task: null } });
    conn.send({ type: 'turn.event', turn: 0, seat: 'agent2', action: { type: 'speak', argument: 'hello' } });
    conn.send(request(1));
    const act = await conn.next('turn.act');
    expect(act.turn).toBe(1);
    expect(act.action).toEqual({ type: 'speak', argument: 'turn 1, 1 events' });
    expect(act.meta.policy).toBe('test:echo');
    const view = policy.views[0]!;
    expect(view.welcome.seat).toBe('agent1');
    expect(view.peers.map((p) => p.goal)).toEqual(['their goal']);
    expect(view.events.map((e) => e.action.argument)).toEqual(['hello']);
  });

  it('sends a policy failure as turn.fail, never as a none action', async () => {
    const failing: Policy = {
      spec: 'test:fail',
      async act() {
        return { ok: false, error: { code: 'llm/unparsable', message: 'no JSON' }, meta: { policy: 'test:fail', latencyMs: 3 } };
      },
    };
    play(failing);
    const conn = await server.connection(0);
    conn.send(welcomeBody());
    conn.send(request(0));
    const fail = await conn.next('turn.fail');
    expect(fail).toMatchObject({ turn: 0, error: { code: 'llm/unparsable', message: 'no JSON' } });
    expect(conn.received.some((f) => 'type' in f && f.type === 'turn.act')).toBe(false);
  });

  it('reports a policy that throws as turn.fail with policy/failed', async () => {
    const throwing: Policy = {
      spec: 'test:throw',
      async act() {
        throw new Error('boom');
      },
    };
    play(throwing);
    const conn = await server.connection(0);
    conn.send(welcomeBody());
    conn.send(request(3));
    const fail = await conn.next('turn.fail');
    expect(fail.turn).toBe(3);
    expect(fail.error.code).toBe(ErrorCode.PolicyFailed);
    expect(fail.error.message).toContain('boom');
  });

  it('aborts the policy at the deadline and reports a hung one as a missed deadline', async () => {
    let sawAbort = false;
    const hung: Policy = {
      spec: 'test:hung',
      act(_view, _req, signal) {
        signal.addEventListener('abort', () => (sawAbort = true));
        return new Promise(() => {}); // ignores the signal on purpose
      },
    };
    play(hung, 'tok-1', { deadlineGraceMs: 50 });
    const conn = await server.connection(0);
    conn.send(welcomeBody());
    conn.send(request(0, 100));
    const fail = await conn.next('turn.fail');
    expect(fail.error.code).toBe(ErrorCode.DeadlineMissed);
    expect(sawAbort).toBe(true);
  });

  it('turns an invalid move (over the size limit) into turn.fail instead of sending a bad frame', async () => {
    const verbose: Policy = {
      spec: 'test:verbose',
      async act() {
        return { ok: true, action: { type: 'speak', argument: 'x'.repeat(9000) }, meta: { policy: 'test:verbose', latencyMs: 1 } };
      },
    };
    play(verbose);
    const conn = await server.connection(0);
    conn.send(welcomeBody());
    conn.send(request(0));
    const fail = await conn.next('turn.fail');
    expect(fail.error.code).toBe('policy/invalid_output');
    expect(fail.error.message).toMatch(/action\.argument/);
  });

  it('writes the script on script.request, or says it cannot', async () => {
    const writer: Policy = {
      ...echoPolicy(),
      async writeScript(req: ScriptRequest) {
        return { ok: true, turns: [{ seat: req.background.scenario.seats[0]!, action: { type: 'leave', argument: '' } }], meta: { policy: 'test:echo', latencyMs: 1 } };
      },
    };
    const background = { scenario: welcomeBody().scenario, seats: [], mode: 'script' as const };
    const limits = welcomeBody().limits;
    play(writer, 'tok-w');
    const conn = await server.connection(0);
    conn.send({ type: 'script.request', background, limits });
    const submit = await conn.next('script.submit');
    expect(submit.turns).toEqual([{ seat: 'agent1', action: { type: 'leave', argument: '' } }]);

    play(echoPolicy(), 'tok-x');
    const conn2 = await server.connection(1);
    conn2.send({ type: 'script.request', background, limits });
    expect((await conn2.next('script.fail')).error.code).toBe('policy/cannot_write_script');
  });

  it('ends normally on episode.end, after the connection closed', async () => {
    const session = play(echoPolicy());
    const conn = await server.connection(0);
    conn.send(welcomeBody());
    conn.send({ type: 'episode.end', reason: 'max_turns' });
    await expect(session.done).resolves.toEqual({ status: 'ended', reason: 'max_turns' });
    await conn.closed;
  });

  it('logs error frames and malformed frames without crashing, then keeps playing', async () => {
    const lines: string[] = [];
    play(echoPolicy(), 'tok-1', { log: (l) => lines.push(l) });
    const conn = await server.connection(0);
    conn.send(welcomeBody());
    conn.send({ type: 'error', code: ErrorCode.StaleTurn, message: 'turn 0 is over' });
    conn.socket.send('{not json');
    conn.socket.send(JSON.stringify({ v: 1, id: 'x', type: 'turn.request', turn: -1 }));
    conn.send(request(2));
    expect((await conn.next('turn.act')).turn).toBe(2);
    expect(lines.some((l) => l.includes(ErrorCode.StaleTurn))).toBe(true);
    expect(lines.filter((l) => l.includes('bad frame')).length).toBe(2);
  });

  it("logs what the orchestrator says without its escape sequences or line breaks (a remote server's text)", async () => {
    const lines: string[] = [];
    const session = play(echoPolicy(), 'tok-1', { log: (l) => lines.push(l) });
    const conn = await server.connection(0);
    await conn.next('seat.join');
    conn.send(welcomeBody());
    conn.send({ type: 'error', code: ErrorCode.StaleTurn, message: 'no\u001b]0;owned\u0007 such\nseat \u001b[31mred' });
    // An unexpected close: the client logs it, with its reason, as it reconnects.
    conn.socket.close(1011, 'bye\u001b[2J\r\nfake line');
    await server.connection(1);
    session.close('test over');
    const said = lines.join('\n');
    expect(said).toContain('no such ⏎ seat red');
    expect(said).toContain('bye ⏎ fake line');
    expect(said).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  });

  it('reports a refused join (error frame, then close 4002) as refused without reconnecting', async () => {
    const session = play(echoPolicy(), 'wrong');
    const conn = await server.connection(0);
    const join = await conn.next('seat.join');
    conn.send({ type: 'error', code: ErrorCode.BadToken, message: 'unknown token', re: join.id });
    conn.socket.close(CloseCode.JoinRefused, 'bad token');
    await expect(session.done).resolves.toMatchObject({ status: 'refused', code: ErrorCode.BadToken });
    expect(server.connections).toHaveLength(1);
  });

  it('reconnects with the same token after an unexpected close and answers the re-sent request once', async () => {
    const policy = echoPolicy();
    const session = play(policy);
    const first = await server.connection(0);
    await first.next('seat.join');
    first.send(welcomeBody());
    first.send({ type: 'turn.event', turn: 0, seat: 'agent2', action: { type: 'speak', argument: 'hi' } });
    first.socket.terminate();

    const second = await server.connection(1);
    const join = await second.next('seat.join');
    expect(join.token).toBe('tok-1');
    second.send(welcomeBody());
    // The orchestrator may resend events it already sent: the view must not double them.
    second.send({ type: 'turn.event', turn: 0, seat: 'agent2', action: { type: 'speak', argument: 'hi' } });
    second.send(request(1));
    expect((await second.next('turn.act')).turn).toBe(1);
    expect(policy.views.at(-1)!.events).toHaveLength(1);
    second.send(request(1));
    second.send({ type: 'ping', nonce: 'after' });
    await second.next('pong');
    expect(second.received.filter((f) => 'type' in f && f.type === 'turn.act')).toHaveLength(1);
    second.send({ type: 'episode.end', reason: 'leave' });
    await expect(session.done).resolves.toEqual({ status: 'ended', reason: 'leave' });
  });

  it('sends a reply finished while disconnected once it is welcomed again', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow: Policy = {
      spec: 'test:slow',
      async act(_v, req) {
        await gate;
        return { ok: true, action: { type: 'speak', argument: `late ${req.turn}` }, meta: { policy: 'test:slow', latencyMs: 1 } };
      },
    };
    play(slow);
    const first = await server.connection(0);
    first.send(welcomeBody());
    first.send(request(4));
    await first.next('seat.join');
    first.socket.terminate();
    const second = await server.connection(1);
    await second.next('seat.join');
    release();
    second.send(welcomeBody());
    const act = await second.next('turn.act');
    expect(act).toMatchObject({ turn: 4, action: { argument: 'late 4' } });
  });

  it('gives up with a clear failure when nothing listens', async () => {
    const url = server.url;
    await server.close();
    const session = playSeat({ url, token: 't', policy: echoPolicy(), reconnect: { initialAttempts: 1, baseDelayMs: 10 } });
    const outcome = await session.done;
    expect(outcome.status).toBe('failed');
    expect(outcome).toMatchObject({ code: 'connection/lost' });
    expect((outcome as { message: string }).message).toMatch(/cannot reach ws:\/\/127\.0\.0\.1:\d+\/agent .*ECONNREFUSED.* after 2 attempts/);
    server = await startFakeOrchestrator();
  });

  it('waits on a connection the orchestrator took for its late answer: one connection, joined, not "timed out after 3 attempts"', async () => {
    await server.close();
    // Only setTimeout is faked, and only until the answer: the seat's handshake timers move when the test says.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let held = 0;
    server = await startFakeOrchestrator({
      holdUpgrade: (answer) => {
        if (held++ > 0) return answer();
        // The opening request was read 30 s after it came (three times the connection's 10 s, the paper
        // grid's failure at load ~45); the answer then goes out.
        vi.advanceTimersByTime(30_000);
        vi.useRealTimers();
        answer();
      },
    });
    const session = playSeat({ url: server.url, token: 'slow', policy: echoPolicy(), reconnect: { baseDelayMs: 20, maxDelayMs: 50 } });
    sessions.push(session);
    const conn = await server.connection(0);
    await expect(conn.next('seat.join')).resolves.toMatchObject({ token: 'slow' });
    expect(server.connections).toHaveLength(1);
  });

  it('treats close 4007 (replaced by another connection) as final', async () => {
    const session = play(echoPolicy());
    const conn = await server.connection(0);
    conn.send(welcomeBody());
    conn.socket.close(CloseCode.Replaced, 'replaced');
    await expect(session.done).resolves.toMatchObject({ status: 'failed', code: 'connection/closed_by_server' });
    expect(server.connections).toHaveLength(1);
  });
});
