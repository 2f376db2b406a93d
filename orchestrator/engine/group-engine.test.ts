import { describe, expect, it } from 'vitest';
import type { Action } from '../../protocol/index.js';
import { generateGroupScenarios } from '../../scenarios/generate/groups.js';
import { fakeAgent } from '../testing/fake-agent.js';
import { harness } from '../testing/harness.js';

const speak = (argument: string): Action => ({ type: 'speak', argument });
const leave: Action = { type: 'leave', argument: '' };

/** The engine with three seats, in-process: turn order, leaves in a group, the speaker naming the next. */
describe('turn loop with a group of three', () => {
  const open = () => ({ ...generateGroupScenarios(1)[0]!, kind: 'open' as const, truth: null, seats: generateGroupScenarios(1)[0]!.seats.map((s) => ({ ...s, task: null })) });

  it('round robin through all three; a leave takes the seat out and the others go on until one is left', async () => {
    const h = harness(open(), 'agents', { maxTurns: 12 });
    fakeAgent(h.transport, h.token('agent1'));
    fakeAgent(h.transport, h.token('agent2'), { act: (r) => (r.turn === 1 ? leave : speak('hi')) });
    fakeAgent(h.transport, h.token('agent3'), { act: (r) => (r.turn === 4 ? leave : speak('hi')) });
    const record = await h.episode.run();
    expect(record.turns.map((t) => t.seat)).toEqual(['agent1', 'agent2', 'agent3', 'agent1', 'agent3']);
    expect(record.termination).toEqual({ reason: 'leave', seat: 'agent3' });
    // The seat that left still hears the others' moves (it stays connected until the end).
    const heard = h.ledgers.get('agent2')!.lines.map((l) => JSON.parse(l)).filter((f) => f.type === 'turn.event');
    expect(heard).toHaveLength(5);
  });

  it('speaker_names_next: the participant the speaker names speaks next; else round robin', async () => {
    const scenario = { ...open(), turnOrder: 'speaker_names_next' as const };
    const third = scenario.seats[2]!.character.name;
    const h = harness(scenario, 'agents', { maxTurns: 4 });
    fakeAgent(h.transport, h.token('agent1'), { act: (r) => (r.turn === 0 ? speak(`What do you think, ${third}?`) : speak('ok')) });
    fakeAgent(h.transport, h.token('agent2'));
    fakeAgent(h.transport, h.token('agent3'), { act: () => speak('I agree.') });
    const record = await h.episode.run();
    expect(record.turns.map((t) => t.seat)).toEqual(['agent1', 'agent3', 'agent1', 'agent2']);
  });
});
