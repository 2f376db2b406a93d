import { describe, expect, it, vi } from 'vitest';
import { ErrorCode, type Action } from '../../protocol/index.js';
import { craigslistFixture, mutualFriendsFixture, openFixture } from '../../test/fixtures/scenarios.js';
import { fakeAgent } from '../testing/fake-agent.js';
import { harness } from '../testing/harness.js';
import { seatBAskedAndSilent } from '../testing/silent-seat.js';

const speak = (argument: string): Action => ({ type: 'speak', argument });
const act = (argument: string): Action => ({ type: 'action', argument });

describe('turn loop (agents / mindreaders)', () => {
  it('plays round-robin turns in seat order until max turns, echoing each move to every seat', async () => {
    const h = harness(openFixture(3), 'agents', { maxTurns: 6 });
    const a = fakeAgent(h.transport, h.token('A'), { pid: 11 });
    const b = fakeAgent(h.transport, h.token('B'), { pid: 12 });
    const record = await h.episode.run();
    expect(record.status).toBe('ok');
    expect(record.termination.reason).toBe('max_turns');
    expect(record.turns.map((t) => [t.turn, t.seat])).toEqual([[0, 'A'], [1, 'B'], [2, 'A'], [3, 'B'], [4, 'A'], [5, 'B']]);
    expect(record.turns[1]!.action).toEqual(speak('hello 1'));
    for (const c of [a, b]) {
      const events = c.frames.filter((f) => f.type === 'turn.event');
      expect(events.map((e) => (e.type === 'turn.event' ? e.turn : -1))).toEqual([0, 1, 2, 3, 4, 5]);
      expect(c.frames.at(-1)?.type).toBe('episode.end');
    }
    expect(record.seats.map((s) => [s.seat, s.pid])).toEqual([['A', 11], ['B', 12]]);
    expect(record.outcome).toEqual({ kind: 'open', success: null });
  });

  it('ends when a seat leaves, recording the leave', async () => {
    const h = harness(openFixture(3), 'agents');
    fakeAgent(h.transport, h.token('A'));
    fakeAgent(h.transport, h.token('B'), { act: (r) => (r.turn === 3 ? { type: 'leave', argument: '' } : speak('hi')) });
    const record = await h.episode.run();
    expect(record.termination).toEqual({ reason: 'leave', seat: 'B' });
    expect(record.turns).toHaveLength(4);
    expect(record.turns[3]!.action?.type).toBe('leave');
  });

  it('ends after more than 2 consecutive none actions', async () => {
    const h = harness(openFixture(3), 'agents');
    const none: Action = { type: 'none', argument: '' };
    fakeAgent(h.transport, h.token('A'), { act: (r) => (r.turn === 0 ? speak('hi') : none) });
    fakeAgent(h.transport, h.token('B'), { act: () => none });
    const record = await h.episode.run();
    expect(record.termination.reason).toBe('idle');
    expect(record.turns).toHaveLength(4); // speak, none, none, none
  });

  it('ends a Craigslist episode at accept and reports the deal at the partner offer', async () => {
    const h = harness(craigslistFixture(), 'agents');
    fakeAgent(h.transport, h.token('A'), { act: (r) => (r.turn === 0 ? act('offer $80') : speak('ok')) });
    fakeAgent(h.transport, h.token('B'), { act: () => act('accept') });
    const record = await h.episode.run();
    expect(record.termination).toEqual({ reason: 'task_end', detail: 'accept', seat: 'B' });
    expect(record.outcome).toEqual({ kind: 'craigslist', deal: true, price: 80, acceptedBy: 'B', success: true });
  });

  it('ends a MutualFriends episode once every seat has selected', async () => {
    const h = harness(mutualFriendsFixture(), 'agents');
    fakeAgent(h.transport, h.token('A'), { act: (r) => (r.turn === 2 ? act('select Alex Kim') : speak('who do you know?')) });
    fakeAgent(h.transport, h.token('B'), { act: (r) => (r.turn === 3 ? act('select alex kim') : speak('friends from Oakridge')) });
    const record = await h.episode.run();
    expect(record.termination).toEqual({ reason: 'task_end', detail: 'all_selected' });
    expect(record.turns).toHaveLength(4);
    expect(record.outcome).toMatchObject({ kind: 'mutual_friends', success: true, selections: { A: 'Alex Kim', B: 'alex kim' } });
  });

  it('misses a deadline on the fake clock: an explicit turn error, never a none', async () => {
    const { h, b, done } = await seatBAskedAndSilent({ turnDeadlineMs: 5_000 });
    h.clock.advance(4_999);
    expect(b.frames.some((f) => f.type === 'episode.end')).toBe(false);
    h.clock.advance(1);
    const record = await done;
    expect(record.status).toBe('failed');
    expect(record.termination).toEqual({ reason: 'deadline', seat: 'B' });
    expect(record.turns[1]).toMatchObject({ turn: 1, seat: 'B', action: null, error: { code: ErrorCode.DeadlineMissed } });
    expect(record.errors[0]).toMatchObject({ code: ErrorCode.DeadlineMissed, seat: 'B', turn: 1 });
  });

  it('records turn.fail as an explicit error and ends with policy_error', async () => {
    const h = harness(openFixture(3), 'agents');
    fakeAgent(h.transport, h.token('A'), { act: (r) => (r.turn === 2 ? { fail: 'LLM output unparsable' } : speak('hi')) });
    fakeAgent(h.transport, h.token('B'));
    const record = await h.episode.run();
    expect(record.status).toBe('failed');
    expect(record.termination).toMatchObject({ reason: 'policy_error', seat: 'A' });
    expect(record.turns[2]).toMatchObject({ seat: 'A', action: null, error: { message: 'LLM output unparsable' } });
  });

  it('refuses out-of-turn and stale acts with error frames and carries on unharmed', async () => {
    const h = harness(openFixture(3), 'agents', { maxTurns: 4 });
    const meta = { policy: 'fake', latencyMs: 1 };
    const b = fakeAgent(h.transport, h.token('B'));
    const a = fakeAgent(h.transport, h.token('A'), { act: (r) => (r.turn === 2 ? null : speak(`A ${r.turn}`)) });
    const done = h.episode.run();
    await vi.waitFor(() => expect(a.frames.filter((f) => f.type === 'turn.request')).toHaveLength(2));
    // Turn 2 is A's: B acts out of turn, A answers an old turn.
    b.send({ type: 'turn.act', turn: 2, action: speak('me first'), meta });
    a.send({ type: 'turn.act', turn: 0, action: speak('old news'), meta });
    const codes = (c: typeof a) => c.frames.flatMap((f) => (f.type === 'error' ? [f.code] : []));
    await vi.waitFor(() => {
      expect(codes(b)).toEqual([ErrorCode.NotYourTurn]);
      expect(codes(a)).toEqual([ErrorCode.StaleTurn]);
    });
    a.send({ type: 'turn.act', turn: 2, action: speak('A 2'), meta });
    const record = await done;
    expect(record.status).toBe('ok');
    expect(record.termination.reason).toBe('max_turns');
    expect(record.turns.map((t) => t.action?.argument)).toEqual(['A 0', 'hello 1', 'A 2', 'hello 3']);
    // The refusals are in the seats' ledgers, with `re` pointing at the refused frame.
    const err = h.ledgers.get('B')!.frames().find((f) => f.type === 'error');
    expect(err).toMatchObject({ code: ErrorCode.NotYourTurn, re: expect.any(String) });
  });

  it('ends with disconnect when a seat drops and no reconnect is allowed', async () => {
    const { b, done } = await seatBAskedAndSilent();
    b.disconnect();
    const record = await done;
    expect(record.status).toBe('failed');
    expect(record.termination).toMatchObject({ reason: 'disconnect', seat: 'B' });
  });

  it('lets a dropped seat resume with its secret within the grace period and resends its turn', async () => {
    const { h, b, done } = await seatBAskedAndSilent({ maxTurns: 3, reconnectGraceMs: 10_000 });
    b.disconnect();
    h.clock.advance(1_000);
    const b2 = fakeAgent(h.transport, h.token('B'), { act: (r) => speak(`back ${r.turn}`), resume: b.resumeSecret! });
    const record = await done;
    expect(record.status).toBe('ok');
    expect(record.turns.map((t) => t.action?.argument)).toEqual(['hello 0', 'back 1', 'hello 2']);
    expect(b2.frames[0]?.type).toBe('seat.welcome');
    // The secret rotated with the rejoin, and the record says what happened to the seat.
    expect(b2.resumeSecret).toMatch(/^[0-9A-Za-z]{32}$/);
    expect(b2.resumeSecret).not.toBe(b.resumeSecret);
    expect(record.seatEvents?.map((e) => `${e.seat} ${e.kind}`)).toEqual(['B down', 'B rejoined']);
    expect(b2.frames.find((f) => f.type === 'turn.request')).toMatchObject({ turn: 1 });
  });

  it('fails the episode when a seat never joins within the token TTL', async () => {
    const h = harness(openFixture(3), 'agents', { tokenTtlMs: 30_000 });
    const a = fakeAgent(h.transport, h.token('A'));
    const done = h.episode.run();
    await vi.waitFor(() => expect(a.frames[0]?.type).toBe('seat.welcome'));
    h.clock.advance(30_000);
    const record = await done;
    expect(record.status).toBe('failed');
    expect(record.termination.detail).toMatch(/B did not join/);
    expect(a.frames.at(-1)).toMatchObject({ type: 'episode.end', reason: 'disconnect' });
    expect(h.registry.size).toBe(0);
  });
});

describe('script mode', () => {
  const line = (seat: string, action: Action) => ({ seat, action });

  it('turns a submitted script into the same turn records, cut at the task end', async () => {
    const h = harness(craigslistFixture(), 'script');
    const writer = fakeAgent(h.transport, h.token('script'), {
      script: [line('A', speak('Would you take 70?')), line('B', act('offer $85')), line('A', act('accept')), line('B', speak('Great, extra line'))],
    });
    const record = await h.episode.run();
    expect(writer.frames[0]?.type).toBe('script.request');
    expect(record.status).toBe('ok');
    expect(record.termination).toMatchObject({ reason: 'task_end', detail: expect.stringContaining('accept'), seat: 'A' });
    expect(record.turns.map((t) => [t.turn, t.seat])).toEqual([[0, 'A'], [1, 'B'], [2, 'A']]);
    expect(record.outcome).toMatchObject({ deal: true, price: 85, acceptedBy: 'A' });
    expect(record.seats.map((s) => [s.seat, s.live, s.pid])).toEqual([['A', false, null], ['B', false, null]]);
    expect(record.scriptWriter?.pid).toEqual(expect.any(Number));
    expect([...h.ledgers.keys()]).toEqual(['script']);
  });

  it('truncates a script longer than max turns', async () => {
    const h = harness(openFixture(3), 'script', { maxTurns: 4 });
    fakeAgent(h.transport, h.token('script'), { script: Array.from({ length: 9 }, (_, i) => line(i % 2 ? 'B' : 'A', speak(`line ${i}`))) });
    const record = await h.episode.run();
    expect(record.turns).toHaveLength(4);
    expect(record.termination.reason).toBe('max_turns');
  });

  it('ends a script that runs out with script_end', async () => {
    const h = harness(openFixture(3), 'script');
    fakeAgent(h.transport, h.token('script'), { script: [line('A', speak('hi')), line('B', speak('hello'))] });
    const record = await h.episode.run();
    expect(record.termination.reason).toBe('script_end');
  });

  it('rejects a script naming an unknown seat as an explicit error', async () => {
    const h = harness(openFixture(3), 'script');
    const w = fakeAgent(h.transport, h.token('script'), { script: [line('A', speak('hi')), line('Z', speak('who am I'))] });
    const record = await h.episode.run();
    expect(record.status).toBe('failed');
    expect(record.termination.reason).toBe('script_error');
    expect(record.errors[0]).toMatchObject({ code: ErrorCode.ScriptInvalid, message: expect.stringContaining("'Z'") });
    expect(w.frames.some((f) => f.type === 'error' && f.code === ErrorCode.ScriptInvalid)).toBe(true);
  });

  it('rejects an empty script and records script.fail as a policy error', async () => {
    const empty = harness(openFixture(3), 'script');
    fakeAgent(empty.transport, empty.token('script'), { script: [] });
    expect((await empty.episode.run()).termination.reason).toBe('script_error');
    const failed = harness(openFixture(3), 'script');
    fakeAgent(failed.transport, failed.token('script'), { script: { fail: 'model refused' } });
    const record = await failed.episode.run();
    expect(record.termination.reason).toBe('policy_error');
    expect(record.errors[0]?.message).toBe('model refused');
  });
});
