import { describe, expect, it } from 'vitest';
import { CloseCode, ErrorCode } from '../protocol/codes.js';
import type { OrchestratorFrame } from '../protocol/frames.js';
import { BUSY_RETRIES, SeatClientState, type CloseDecision, type FrameEffect, type SeatClientPhase } from './state.js';

/** Frames as the machine reads them (only the fields it uses; the decoder checks the rest at the edge). */
const f = {
  welcome: (resume: string) => ({ type: 'seat.welcome', seat: 'A', resume }) as unknown as OrchestratorFrame,
  request: (turn: number, deadlineMs = 30_000) => ({ type: 'turn.request', turn, deadlineMs, actions: ['speak'] }) as unknown as OrchestratorFrame,
  event: (turn: number) => ({ type: 'turn.event', turn, seat: 'B', action: { type: 'speak', argument: 'hi' } }) as unknown as OrchestratorFrame,
  end: (reason: string) => ({ type: 'episode.end', reason }) as unknown as OrchestratorFrame,
  error: (code: string, message = 'no') => ({ type: 'error', code, message }) as unknown as OrchestratorFrame,
};

function machine(o: { attempts?: number; initialAttempts?: number; resume?: string } = {}) {
  let now = 0;
  const seat = new SeatClientState({
    now: () => now,
    attempts: o.attempts ?? 3,
    initialAttempts: o.initialAttempts ?? 1,
    backoffMs: (failures) => 100 * 2 ** failures,
    target: 'ws://h/agent',
    ...(o.resume ? { resume: o.resume } : {}),
  });
  return { seat, advance: (ms: number) => (now += ms) };
}

/** Connects and opens a connection; returns its number. */
function open(seat: SeatClientState): number {
  const conn = seat.connecting();
  seat.opened();
  return conn;
}

describe('seat client state machine: every transition on a simulated clock', () => {
  it('connecting → joining → waiting → my turn → waiting → reconnecting → waiting → ended, the resume secret rotating', () => {
    const { seat, advance } = machine({ resume: 'given' });
    const trail: SeatClientPhase[] = [seat.phase];
    expect(seat.resume).toBe('given');
    let conn = seat.connecting();
    seat.opened();
    trail.push(seat.phase);
    expect(seat.frame(f.welcome('s1'), conn)).toBe('welcomed');
    trail.push(seat.phase);
    expect(seat.resume).toBe('s1');
    seat.frame(f.request(0, 10_000), conn);
    trail.push(seat.phase);
    advance(4_000);
    expect(seat.timeLeftMs()).toBe(6_000);
    seat.acted();
    trail.push(seat.phase);
    expect(seat.timeLeftMs()).toBeNull();
    expect(seat.closed(1006, '')).toEqual({ kind: 'reconnect', delayMs: 100, attempt: 1, of: 3, why: 'close 1006', cause: 'lost' });
    trail.push(seat.phase);
    conn = open(seat);
    expect(seat.phase).toBe('joining');
    seat.frame(f.welcome('s2'), conn);
    trail.push(seat.phase);
    expect(seat.resume).toBe('s2');
    expect(seat.frame(f.end('max_turns'), conn)).toBe('close_ended');
    expect(seat.closed(1000, 'episode ended')).toEqual({ kind: 'finish', outcome: { status: 'ended', reason: 'max_turns' } });
    trail.push(seat.phase);
    expect(trail).toEqual(['connecting', 'joining', 'waiting', 'my_turn', 'waiting', 'reconnecting', 'waiting', 'ended']);
  });

  it("the partner's move for my open turn (the orchestrator moved on) closes my turn", () => {
    const { seat } = machine();
    const conn = open(seat);
    seat.frame(f.welcome('s'), conn);
    seat.frame(f.request(2), conn);
    seat.frame(f.event(1), conn);
    expect(seat.phase).toBe('my_turn');
    seat.frame(f.event(2), conn);
    expect([seat.phase, seat.pending]).toEqual(['waiting', null]);
  });

  it('a frame of an older connection changes nothing', () => {
    const { seat } = machine();
    const old = open(seat);
    seat.closed(1006, '');
    const conn = open(seat);
    expect(seat.frame(f.welcome('stale'), old)).toBe('none');
    expect([seat.phase, seat.welcome]).toEqual(['joining', null]);
    seat.frame(f.welcome('fresh'), conn);
    expect(seat.resume).toBe('fresh');
  });

  // One row per way a connection can close: the frames before it, the close, and the decision.
  const closes: { name: string; before: OrchestratorFrame[]; welcomed: boolean; close: [number, string]; expected: CloseDecision; effect?: FrameEffect }[] = [
    { name: 'a join refusal from the code table, before the welcome, is final', before: [f.error(ErrorCode.BadToken, 'bad token')], welcomed: false, close: [1000, 'join refused'], expected: { kind: 'finish', outcome: { status: 'refused', code: ErrorCode.BadToken, message: 'bad token' } }, effect: 'close_refused' },
    { name: 'a refusing close code is a refusal', before: [], welcomed: false, close: [CloseCode.JoinRefused, 'no'], expected: { kind: 'finish', outcome: { status: 'refused', code: ErrorCode.JoinRefused, message: `join refused (close ${CloseCode.JoinRefused}: no)` } } },
    { name: 'rate limited: not a refusal, the retry waits as long as asked', before: [f.error(ErrorCode.RateLimited, 'retry in 7 s')], welcomed: false, close: [CloseCode.JoinRefused, 'slow down'], expected: { kind: 'reconnect', delayMs: 7000, attempt: 1, of: 1, why: `close ${CloseCode.JoinRefused}: slow down`, cause: 'rate_limited' }, effect: 'none' },
    { name: 'an error after the welcome is not a refusal', before: [f.error(ErrorCode.BadToken)], welcomed: true, close: [1006, ''], expected: { kind: 'reconnect', delayMs: 100, attempt: 1, of: 3, why: 'close 1006', cause: 'lost' }, effect: 'none' },
    { name: 'close 4000 is a normal end', before: [], welcomed: true, close: [CloseCode.EpisodeEnded, 'done'], expected: { kind: 'finish', outcome: { status: 'ended', reason: 'done' } } },
    { name: 'a final close code ends the seat as failed', before: [], welcomed: true, close: [CloseCode.Replaced, 'taken over'], expected: { kind: 'finish', outcome: { status: 'failed', code: ErrorCode.ClosedByServer, message: `the orchestrator closed the connection (close ${CloseCode.Replaced}: taken over)` } } },
    { name: 'before any welcome, attempts run out fast', before: [], welcomed: false, close: [1006, ''], expected: { kind: 'reconnect', delayMs: 100, attempt: 1, of: 1, why: 'close 1006', cause: 'lost' } },
  ];
  for (const row of closes) {
    it(`close: ${row.name}`, () => {
      const { seat } = machine();
      const conn = open(seat);
      if (row.welcomed) seat.frame(f.welcome('s'), conn);
      for (const frame of row.before) {
        const effect = seat.frame(frame, conn);
        if (row.effect) expect(effect).toBe(row.effect);
      }
      expect(seat.closed(...row.close)).toEqual(row.expected);
      expect(seat.phase).toBe(row.expected.kind === 'finish' ? row.expected.outcome.status : 'reconnecting');
    });
  }

  it('reconnects back off, then fail naming the target and the last error; a welcome resets the count', () => {
    const { seat } = machine({ attempts: 2, initialAttempts: 2 });
    let conn = open(seat);
    seat.frame(f.welcome('s'), conn);
    seat.error('ECONNREFUSED');
    expect(seat.closed(1006, '')).toMatchObject({ kind: 'reconnect', delayMs: 100, why: 'ECONNREFUSED' });
    conn = open(seat);
    expect(seat.closed(1006, '')).toMatchObject({ kind: 'reconnect', delayMs: 200, attempt: 2 });
    conn = open(seat);
    seat.frame(f.welcome('s2'), conn);
    expect(seat.closed(1006, '')).toMatchObject({ kind: 'reconnect', delayMs: 100, attempt: 1 });
    open(seat);
    seat.closed(1006, '');
    open(seat);
    seat.error('ECONNRESET');
    expect(seat.closed(1006, '')).toEqual({ kind: 'finish', outcome: { status: 'failed', code: ErrorCode.ConnectionLost, message: 'cannot reach ws://h/agent (ECONNRESET) after 3 attempts' } });
    expect(seat.over).toBe(true);
  });

  it('closes to make room (4009) before a welcome are joined again without using the attempts, up to BUSY_RETRIES', () => {
    // The mux1000 case's failed episode: a seat's connection given up three times while waiting to join
    // (then cut, close 1006) ran out of its one reconnect before a welcome and failed.
    const { seat } = machine({ initialAttempts: 1 });
    for (let i = 1; i <= BUSY_RETRIES; i++) {
      open(seat);
      expect(seat.closed(CloseCode.Busy, 'full')).toMatchObject({ kind: 'reconnect', attempt: i, of: BUSY_RETRIES, why: `close ${CloseCode.Busy}: full`, cause: 'busy' });
      expect(seat.phase).toBe('reconnecting');
    }
    // The initial attempt is still there; past the bound, a busy close counts as a lost connection.
    open(seat);
    expect(seat.closed(CloseCode.Busy, 'full')).toMatchObject({ kind: 'reconnect', attempt: 1, of: 1, cause: 'lost' });
    open(seat);
    expect(seat.closed(CloseCode.Busy, 'full')).toMatchObject({ kind: 'finish', outcome: { status: 'failed', code: ErrorCode.ConnectionLost } });
  });

  it('closing locally fails the seat once; after an end it changes nothing', () => {
    const { seat } = machine();
    open(seat);
    expect(seat.closeLocally('bye')).toEqual({ status: 'failed', code: ErrorCode.ClosedLocally, message: 'bye' });
    expect(seat.closeLocally('again')).toBeNull();
    expect(seat.closed(1000, '')).toEqual({ kind: 'finish', outcome: { status: 'failed', code: ErrorCode.ClosedLocally, message: 'bye' } });
    const ended = machine().seat;
    const conn = open(ended);
    ended.frame(f.end('leave'), conn);
    ended.closed(1000, '');
    expect(ended.closeLocally('late')).toBeNull();
    expect(ended.phase).toBe('ended');
  });
});
