import { describe, expect, it } from 'vitest';
import { ErrorCode, type Action, type OrchestratorFrame } from '../../protocol/index.js';
import { generateGroupScenarios } from '../../scenarios/generate/groups.js';
import { fakeAgent } from '../testing/fake-agent.js';
import { harness } from '../testing/harness.js';

const WHISPER = 'meet me by the old mill at midnight';
const speak = (argument: string, to?: string[]): Action => (to ? { type: 'speak', argument, to } : { type: 'speak', argument });

/** A group of three with no task, so only speech moves the episode on. */
function open() {
  const base = generateGroupScenarios(1)[0]!;
  return { ...base, kind: 'open' as const, truth: null, seats: base.seats.map((s) => ({ ...s, task: null })) };
}

const events = (frames: readonly OrchestratorFrame[]) => frames.filter((f) => f.type === 'turn.event');
const ledgerText = (h: ReturnType<typeof harness>, seat: string) => h.ledgers.get(seat)!.lines.join('\n');

/** Private moves (`action.to`, issue 39): routed to speaker and recipients only, recorded with who received them. */
describe('private moves in the turn loop', () => {
  it('a whisper reaches the speaker and its recipient only; the third seat never receives a byte of it', async () => {
    const h = harness(open(), 'agents', { maxTurns: 4 });
    const a1 = fakeAgent(h.transport, h.token('agent1'), { act: (r) => (r.turn === 0 ? speak(WHISPER, ['agent2']) : speak('public words')) });
    const a2 = fakeAgent(h.transport, h.token('agent2'));
    const a3 = fakeAgent(h.transport, h.token('agent3'));
    const record = await h.episode.run();
    expect(record.turns[0]).toMatchObject({ seat: 'agent1', action: { type: 'speak', argument: WHISPER, to: ['agent2'] }, to: ['agent1', 'agent2'] });
    expect(record.turns[1]!.to).toBeUndefined();
    // The recipient and the speaker hold it, marked private by its `to`.
    for (const c of [a1, a2]) expect(events(c.frames)[0]).toMatchObject({ turn: 0, seat: 'agent1', action: { argument: WHISPER, to: ['agent2'] } });
    expect(ledgerText(h, 'agent2')).toContain(WHISPER);
    // The third seat: neither its frames nor its ledger; it hears the later public moves.
    expect(events(a3.frames).map((f) => f.turn)).toEqual([1, 2, 3]);
    expect(JSON.stringify(a3.frames)).not.toContain('mill');
    expect(ledgerText(h, 'agent3')).not.toContain('mill');
  });

  it('a message to two of three: both recipients and the speaker, in seat order', async () => {
    const h = harness(open(), 'agents', { maxTurns: 2 });
    fakeAgent(h.transport, h.token('agent1'));
    fakeAgent(h.transport, h.token('agent2'), { act: () => speak(WHISPER, ['agent3', 'agent1']) });
    fakeAgent(h.transport, h.token('agent3'));
    const record = await h.episode.run();
    expect(record.turns[1]!.to).toEqual(['agent1', 'agent2', 'agent3']);
  });

  it.each([
    [['agent1'], 'the speaker'],
    [['agent9'], 'not a seat'],
    [[], 'no seat'],
    [['agent2', 'agent2'], 'twice'],
  ])('to %j is refused with turn/bad_recipients (%s); the seat may answer again and the episode goes on', async (to, why) => {
    const h = harness(open(), 'agents', { maxTurns: 1 });
    let tries = 0;
    const a1 = fakeAgent(h.transport, h.token('agent1'), { act: () => (tries++ === 0 ? speak(WHISPER, to) : speak('fine, out loud')) });
    fakeAgent(h.transport, h.token('agent2'));
    const a3 = fakeAgent(h.transport, h.token('agent3'));
    // The refusal comes back as an error frame; the fake agent answers the error by acting again below.
    a1.onFrame((f) => {
      if (f.type === 'error' && f.code === ErrorCode.BadRecipients) a1.send({ type: 'turn.act', turn: 0, action: speak('fine, out loud'), meta: { policy: 'fake', latencyMs: 1 } });
    });
    const record = await h.episode.run();
    const refusal = a1.frames.find((f) => f.type === 'error');
    expect(refusal).toMatchObject({ code: ErrorCode.BadRecipients });
    expect(refusal && refusal.type === 'error' ? refusal.message : '').toContain(why);
    expect(record.status).toBe('ok');
    expect(record.turns).toHaveLength(1);
    expect(record.turns[0]!.action).toEqual(speak('fine, out loud'));
    expect(JSON.stringify(a3.frames)).not.toContain('mill');
  });

  it('a task move (action) or a leave cannot be private', async () => {
    const h = harness(open(), 'agents', { maxTurns: 1 });
    const a1 = fakeAgent(h.transport, h.token('agent1'), { act: () => ({ type: 'leave', argument: '', to: ['agent2'] }) });
    fakeAgent(h.transport, h.token('agent2'));
    fakeAgent(h.transport, h.token('agent3'));
    a1.onFrame((f) => {
      if (f.type === 'error') a1.send({ type: 'turn.act', turn: 0, action: speak('staying'), meta: { policy: 'fake', latencyMs: 1 } });
    });
    const record = await h.episode.run();
    expect(a1.frames.find((f) => f.type === 'error')).toMatchObject({ code: ErrorCode.BadRecipients });
    expect(record.turns[0]!.action).toEqual(speak('staying'));
  });

  it('speaker_names_next: a whisper hands the floor only to a recipient it names, never to a non-recipient', async () => {
    const scenario = { ...open(), turnOrder: 'speaker_names_next' as const };
    const third = scenario.seats[2]!.character.name;
    const h = harness(scenario, 'agents', { maxTurns: 2 });
    fakeAgent(h.transport, h.token('agent1'), { act: () => speak(`do not trust ${third}`, ['agent2']) });
    fakeAgent(h.transport, h.token('agent2'));
    fakeAgent(h.transport, h.token('agent3'));
    const record = await h.episode.run();
    // Round robin, as if nobody had been named: agent3's turn would have told it it was talked about.
    expect(record.turns.map((t) => t.seat)).toEqual(['agent1', 'agent2']);
  });
});
