import { describe, expect, it } from 'vitest';
import { ACTION_TYPES, type TurnEvent, type TurnRequest } from '../../../protocol/index.js';
import type { SeatView } from '../../policy.js';
import { botOptions } from './bot-policy.js';
import { createBotPolicy } from './index.js';
import { welcome } from './testing/fixtures.js';

const SEATS3 = ['agent1', 'agent2', 'agent3'];
const request = (turn: number): TurnRequest => ({ v: 1, id: `r${turn}`, type: 'turn.request', turn, actions: [...ACTION_TYPES], deadlineMs: 1000 });

/** agent1 of an open group of three, with its partners named. */
function view(events: TurnEvent[] = []): SeatView {
  const w = welcome({ episodeId: 'g-open', seat: 'agent1', kind: 'open', task: null });
  w.scenario = { ...w.scenario, seats: SEATS3 };
  w.partners = [
    { seat: 'agent2', relationship: 2, profile: { name: 'Bea' } },
    { seat: 'agent3', relationship: 2, profile: { name: 'Cal' } },
  ];
  return { welcome: w, peers: [], events };
}

const act = async (params: Record<string, unknown>, v: SeatView, turn: number) => {
  const result = await createBotPolicy('bot', undefined, botOptions(params)).act(v, request(turn), new AbortController().signal);
  return result;
};

/** A bot's deterministic whisper (params whisperTo / whisperAt / whisperText), the option tests drive private moves with. */
describe('bot whisper option', () => {
  it('whispers its first move to the named seat, in its own words prefixed, and speaks publicly after', async () => {
    const first = await act({ whisperTo: 'agent2' }, view(), 0);
    expect(first.ok && first.action).toMatchObject({ type: 'speak', to: ['agent2'], argument: expect.stringMatching(/^Between you and me, Bea: /) });
    const spoken: TurnEvent = { v: 1, id: 'e0', type: 'turn.event', turn: 0, seat: 'agent1', action: first.ok ? first.action : { type: 'none', argument: '' } };
    const later = await act({ whisperTo: 'agent2' }, view([spoken]), 3);
    expect(later.ok && later.action.to).toBeUndefined();
  });

  it('whisperAt picks the turn, whisperText the words, whisperTo may name several seats', async () => {
    const params = { whisperTo: 'agent2,agent3', whisperAt: 3, whisperText: 'the vault code is 4471' };
    const r0 = await act(params, view(), 0);
    expect(r0.ok && r0.action.to).toBeUndefined();
    const r3 = await act(params, view(), 3);
    expect(r3.ok && r3.action).toEqual({ type: 'speak', argument: 'the vault code is 4471', to: ['agent2', 'agent3'] });
  });

  it('a whisperTo that is no partner fails the turn explicitly, never a public move in its place', async () => {
    const r = await act({ whisperTo: 'agent9' }, view(), 0);
    expect(r).toMatchObject({ ok: false, error: { message: expect.stringContaining('whisperTo names agent9') } });
  });
});
