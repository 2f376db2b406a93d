import { afterEach, describe, expect, it } from 'vitest';
import { CloseCode, ErrorCode, MAX_FRAME_BYTES, type EpisodeRecord } from '../protocol/index.js';
import { liveEpisode } from './helpers/live-episode.js';
import { parley, type CliProcess } from './helpers/processes.js';
import { WsAgent } from './helpers/ws-agent.js';

/**
 * Bad input from a client (episode network contract, point 5), over real sockets: seat A is a real
 * `parley agent` process playing the open-chat bot, seat B a hand-driven WebSocket agent that misbehaves
 * (or lets an intruder misbehave) on its first turn, then plays on. Each case checks the refusal (an
 * `error` frame with its code, or a 4xxx close) and that the episode still ran to its normal end.
 */
type Live = Awaited<ReturnType<typeof liveEpisode>>;
const meta = { policy: 'test', latencyMs: 1 };
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/**
 * Starts the episode: A as a real agent process, B as a WsAgent that calls `onFirstTurn` before its
 * first move (which it skips if `onFirstTurn` says it already moved).
 */
async function start(onFirstTurn: (ctx: { live: Live; b: WsAgent; turn: number }) => Promise<void | 'moved'>, opts: Parameters<typeof liveEpisode>[0] = {}) {
  const live = await liveEpisode(opts);
  cleanups.push(() => live.close());
  const a: CliProcess = parley(['agent', '--url', live.url, '--token', live.token('A'), '--policy', 'bot']);
  cleanups.push(() => a.kill());
  const b = await WsAgent.connect(live.url);
  cleanups.push(() => b.close());
  let first = true;
  const play = (agent: WsAgent) =>
    agent.onFrame((f) => {
      if (f.type !== 'turn.request') return;
      const turn = f.turn as number;
      const move = () => agent.send({ type: 'turn.act', turn, action: { type: 'speak', argument: `B says ${turn}` }, meta });
      if (first) {
        first = false;
        void onFirstTurn({ live, b: agent, turn }).then((r) => { if (r !== 'moved') move(); });
      } else move();
    });
  play(b);
  b.join(live.token('B'));
  const record = await live.episode.run();
  const aExit = await a.exited;
  return { live, b, record, aExit };
}

/** The episode went on unharmed: A left normally after a full exchange, every turn a real move, no errors. */
function expectUnharmed(record: EpisodeRecord, live: Live, aExit: number | null) {
  expect(record.status).toBe('ok');
  expect(record.termination).toMatchObject({ reason: 'leave', seat: 'A' });
  expect(record.turns.length).toBeGreaterThanOrEqual(7);
  record.turns.forEach((t, i) => {
    expect(t.seat).toBe(i % 2 === 0 ? 'A' : 'B');
    expect(t.action).not.toBeNull();
  });
  expect(record.turns.filter((t) => t.seat === 'B').map((t) => t.action!.argument)).toEqual(
    record.turns.filter((t) => t.seat === 'B').map((t) => `B says ${t.turn}`),
  );
  expect(record.errors).toEqual([]);
  expect(live.ledgers.get('A')!.frames().filter((f) => f.type === 'error')).toEqual([]);
  expect(aExit).toBe(0);
}

describe('bad input from clients leaves the episode running (real sockets, real agent process)', () => {
  it('wrong token: seat/bad_token and close 4002', async () => {
    let intruder!: WsAgent;
    const { record, live, aExit } = await start(async ({ live }) => {
      intruder = await WsAgent.connect(live.url);
      intruder.join('this-is-not-a-token');
      expect(await intruder.closed).toMatchObject({ code: CloseCode.JoinRefused });
    });
    expect(intruder.errors()).toEqual([ErrorCode.BadToken]);
    expectUnharmed(record, live, aExit);
  });

  it('second join with a spent token: seat/token_spent and close 4002', async () => {
    let intruder!: WsAgent;
    const { record, live, aExit } = await start(async ({ live }) => {
      intruder = await WsAgent.connect(live.url);
      intruder.join(live.token('A')); // A's seat is held by the agent process
      expect(await intruder.closed).toMatchObject({ code: CloseCode.JoinRefused });
    });
    expect(intruder.errors()).toEqual([ErrorCode.TokenSpent]);
    expectUnharmed(record, live, aExit);
    expect(record.seats[0]!.pid).not.toBe(99_999);
  });

  it('act out of turn: turn/not_your_turn', async () => {
    const { record, live, aExit, b } = await start(async ({ b, turn }) => {
      // B moves, then at once moves again: by then the turn is A's.
      b.send({ type: 'turn.act', turn, action: { type: 'speak', argument: `B says ${turn}` }, meta });
      b.send({ type: 'turn.act', turn: turn + 1, action: { type: 'speak', argument: 'me again' }, meta });
      await b.next((f) => f.type === 'error');
      return 'moved';
    });
    expect(b.errors()).toEqual([ErrorCode.NotYourTurn]);
    expectUnharmed(record, live, aExit);
  });

  it('act for a stale turn: turn/stale', async () => {
    const { record, live, aExit, b } = await start(async ({ b, turn }) => {
      b.send({ type: 'turn.act', turn: turn - 1, action: { type: 'speak', argument: 'late' }, meta });
      const err = await b.next((f) => f.type === 'error');
      expect(err).toMatchObject({ code: ErrorCode.StaleTurn, re: expect.any(String) });
    });
    expect(b.errors()).toEqual([ErrorCode.StaleTurn]);
    expectUnharmed(record, live, aExit);
  });

  it('malformed frames: protocol/bad_frame', async () => {
    const { record, live, aExit, b } = await start(async ({ b }) => {
      b.send('{"v":1,"id":"x","type":"turn.act"');
      b.send({ type: 'turn.act', turn: 'one', action: { type: 'dance', argument: 1 } });
      b.send({ type: 'who.knows' });
      await b.next((f) => f.type === 'error' && b.errors().length === 3, 0);
    });
    expect(b.errors()).toEqual([ErrorCode.BadFrame, ErrorCode.BadFrame, ErrorCode.BadFrame]);
    expectUnharmed(record, live, aExit);
  });

  it('frame over the size cap: protocol/frame_too_large', async () => {
    const { record, live, aExit, b } = await start(async ({ b, turn }) => {
      b.send({ type: 'turn.act', turn, action: { type: 'speak', argument: 'x'.repeat(MAX_FRAME_BYTES + 10) }, meta });
      await b.next((f) => f.type === 'error');
    });
    expect(b.errors()).toEqual([ErrorCode.FrameTooLarge]);
    expectUnharmed(record, live, aExit);
  });

  it('repeated abuse: close 4001 ends the seat for good; neither its token nor its secret takes it back', async () => {
    let again!: WsAgent;
    let resumed!: WsAgent;
    const live = await liveEpisode({ reconnectGraceMs: 10_000, maxStrikes: 3 });
    cleanups.push(() => live.close());
    const a: CliProcess = parley(['agent', '--url', live.url, '--token', live.token('A'), '--policy', 'bot']);
    cleanups.push(() => a.kill());
    const b = await WsAgent.connect(live.url);
    cleanups.push(() => b.close());
    // The abuse and the two attempts to take the seat back, awaited below: the episode may end (the seat is
    // closed for good) before the attempts have connected, and they must still be made and refused.
    let abused: Promise<void> | undefined;
    b.onFrame((f) => {
      if (f.type !== 'turn.request' || abused) return;
      abused = (async () => {
        for (let i = 0; i < 3; i++) b.send('garbage');
        expect(await b.closed).toMatchObject({ code: CloseCode.ProtocolAbuse });
        again = await WsAgent.connect(live.url);
        again.join(live.token('B'));
        resumed = await WsAgent.connect(live.url);
        resumed.join(live.token('B'), 99_998, b.resumeSecret);
      })();
    });
    b.join(live.token('B'));
    const record = await live.episode.run();
    expect(await a.exited).toBe(0);
    expect(abused).toBeDefined();
    await abused;
    await Promise.all([again.closed, resumed.closed]);
    cleanups.push(() => again.close(), () => resumed.close());
    expect(b.errors()).toEqual([ErrorCode.BadFrame, ErrorCode.BadFrame, ErrorCode.BadFrame]);
    // Refused either way: closed while the episode is ending, unknown once its tokens are released.
    for (const c of [...again.errors(), ...resumed.errors()]) expect([ErrorCode.SeatClosed, ErrorCode.BadToken]).toContain(c);
    expect([again.errors().length, resumed.errors().length]).toEqual([1, 1]);
    // The episode ends at once, and the record says why.
    expect(record.status).toBe('failed');
    expect(record.termination).toMatchObject({ reason: 'disconnect', seat: 'B', detail: expect.stringContaining('closed for good (4001') });
    expect(record.errors).toContainEqual(expect.objectContaining({ code: ErrorCode.Abuse, seat: 'B' }));
    expect(record.seatEvents?.filter((e) => e.seat === 'B').map((e) => e.kind)).toEqual(['refused', 'refused', 'refused', 'lost']);
    expect(record.seats.find((s) => s.seat === 'B')!.pids).toEqual([99_999]);
  });
});
