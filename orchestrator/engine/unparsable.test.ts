import { describe, expect, it } from 'vitest';
import { ErrorCode, type Action } from '../../protocol/index.js';
import { PAPER_PROTOCOL, PARLEY_PROTOCOL } from '../../simulation/index.js';
import { openFixture } from '../../test/fixtures/scenarios.js';
import { fakeAgent } from '../testing/fake-agent.js';
import { harness } from '../testing/harness.js';

const speak = (argument: string): Action => ({ type: 'speak', argument });
const unreadable = { fail: 'unreadable reply after one reformat request: no JSON object found', code: ErrorCode.PolicyUnparsable };
const paperFail = { ...PAPER_PROTOCOL, onUnparsable: 'fail' as const };

describe('--on-unparsable in the turn loop', () => {
  it('none (the paper default): the unreadable turn is a none that keeps its failure, and the episode goes on', async () => {
    const h = harness(openFixture(3), 'agents', { maxTurns: 4, protocol: { ...PAPER_PROTOCOL, stopRule: 'paper' } });
    fakeAgent(h.transport, h.token('A'), { act: (r) => (r.turn === 2 ? unreadable : speak(`A ${r.turn}`)) });
    const b = fakeAgent(h.transport, h.token('B'));
    const record = await h.episode.run();
    expect(record.status).toBe('ok');
    expect(record.termination.reason).toBe('max_turns');
    expect(record.turns).toHaveLength(4);
    expect(record.turns[2]).toMatchObject({ seat: 'A', action: { type: 'none', argument: '' }, unparsable: { code: ErrorCode.PolicyUnparsable, message: unreadable.fail } });
    expect(record.turns[2]!.error).toBeUndefined();
    expect(record.errors).toEqual([]);
    // The partner sees an ordinary none, not the failure.
    const event = b.frames.find((f) => f.type === 'turn.event' && f.turn === 2);
    expect(event).toMatchObject({ action: { type: 'none', argument: '' } });
    expect(JSON.stringify(event)).not.toContain('unreadable');
  });

  it('fail (parley default, or chosen under paper): an explicit policy/unparsable error ends the episode', async () => {
    for (const protocol of [PARLEY_PROTOCOL, paperFail]) {
      const h = harness(openFixture(3), 'agents', { protocol });
      fakeAgent(h.transport, h.token('A'), { act: (r) => (r.turn === 2 ? unreadable : speak('hi')) });
      fakeAgent(h.transport, h.token('B'));
      const record = await h.episode.run();
      expect(record.status).toBe('failed');
      expect(record.termination).toMatchObject({ reason: 'policy_error', seat: 'A', detail: ErrorCode.PolicyUnparsable });
      expect(record.turns[2]).toMatchObject({ action: null, error: { code: ErrorCode.PolicyUnparsable } });
      expect(record.turns[2]!.unparsable).toBeUndefined();
    }
  });

  it('none covers only an unreadable reply: any other failure still ends the episode', async () => {
    const h = harness(openFixture(3), 'agents', { protocol: PAPER_PROTOCOL });
    fakeAgent(h.transport, h.token('A'), { act: (r) => (r.turn === 2 ? { fail: 'provider down' } : speak('hi')) });
    fakeAgent(h.transport, h.token('B'));
    const record = await h.episode.run();
    expect(record.status).toBe('failed');
    expect(record.turns[2]).toMatchObject({ action: null, error: { code: ErrorCode.PolicyFailed } });
  });

  it('an unreadable none counts toward the stale rule like any none', async () => {
    const h = harness(openFixture(3), 'agents', { protocol: { ...PAPER_PROTOCOL, stopRule: 'paper' } });
    fakeAgent(h.transport, h.token('A'), { act: () => unreadable });
    fakeAgent(h.transport, h.token('B'), { act: () => ({ type: 'none', argument: '' }) });
    const record = await h.episode.run();
    expect(record.status).toBe('ok');
    expect(record.termination.reason).toBe('idle');
    expect(record.turns.filter((t) => t.unparsable)).toHaveLength(2);
  });
});

describe('--on-unparsable in script mode', () => {
  it('none: an unreadable script becomes an empty dialogue (as SOTOPIA judged one), ok, the failure kept on the writer', async () => {
    const h = harness(openFixture(3), 'script', { protocol: PAPER_PROTOCOL });
    fakeAgent(h.transport, h.token('script'), { script: { fail: 'unreadable reply after one reformat request: no turns found', code: ErrorCode.PolicyUnparsable } });
    const record = await h.episode.run();
    expect(record.status).toBe('ok');
    expect(record.turns).toEqual([]);
    expect(record.termination).toMatchObject({ reason: 'script_end', detail: expect.stringContaining('--on-unparsable none') });
    expect(record.scriptWriter?.unparsable).toMatchObject({ code: ErrorCode.PolicyUnparsable, message: expect.stringContaining('no turns found') });
    expect(record.errors).toEqual([]);
  });

  it('fail: an explicit policy error, no writer mark', async () => {
    const h = harness(openFixture(3), 'script', { protocol: paperFail });
    fakeAgent(h.transport, h.token('script'), { script: { fail: 'no turns found', code: ErrorCode.PolicyUnparsable } });
    const record = await h.episode.run();
    expect(record.status).toBe('failed');
    expect(record.termination).toMatchObject({ reason: 'policy_error', detail: ErrorCode.PolicyUnparsable });
    expect(record.scriptWriter?.unparsable).toBeUndefined();
  });
});
