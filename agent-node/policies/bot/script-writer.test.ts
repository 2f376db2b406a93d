import { describe, expect, it } from 'vitest';
import { ScriptSubmit, parseMove, stamp, type ScriptBackground, type ScriptRequest, type TaskKind, type TaskPrivate } from '../../../protocol/index.js';
import { createBotPolicy } from './index.js';
import { craigslistTerms, friendLists } from './testing/fixtures.js';

function request(kind: TaskKind, tasks: [TaskPrivate | null, TaskPrivate | null], maxTurns = 20, seats = ['agent1', 'agent2']): ScriptRequest {
  const background: ScriptBackground = {
    scenario: { id: 's', kind, text: 'Two people meet.', seats },
    seats: seats.map((seat, i) => ({ seat, profile: { name: `Person ${i + 1}` }, goal: `goal ${i}`, hints: [], task: tasks[i] ?? null, partners: [] })),
    mode: 'script',
  };
  return { v: 1, id: 'q', type: 'script.request', background, limits: { maxTurns, turnDeadlineMs: 1000, actions: ['none', 'speak', 'non-verbal communication', 'action', 'leave'] } };
}

async function write(req: ScriptRequest) {
  const result = await createBotPolicy('bot:script', 'script').writeScript!(req, new AbortController().signal);
  if (!result.ok) throw new Error(result.error.message);
  // What the seat client would send must be a valid frame.
  expect(ScriptSubmit.safeParse(stamp<ScriptSubmit>({ type: 'script.submit', turns: result.turns, meta: result.meta }, 'x')).success).toBe(true);
  return result.turns;
}

const alternates = (turns: { seat: string }[], order: string[]) => turns.every((t, i) => t.seat === order[i % order.length]);

describe('script-writer bot', () => {
  it('MutualFriends: finds the shared friend and both seats select it, alternating, within the turn limit', async () => {
    for (const maxTurns of [20, 3, 2]) {
      const { a, b, answer } = friendLists(11);
      const turns = await write(request('mutual_friends', [a, b], maxTurns));
      expect(turns.length).toBeLessThanOrEqual(maxTurns);
      expect(alternates(turns, ['agent1', 'agent2'])).toBe(true);
      const selects = turns.map((t) => [t.seat, parseMove(t.action)] as const).filter(([, m]) => m?.move === 'select');
      expect(selects.map(([s, m]) => [s, m])).toEqual(
        expect.arrayContaining([['agent1', { move: 'select', name: answer.Name }], ['agent2', { move: 'select', name: answer.Name }]]),
      );
    }
  });

  it('MutualFriends: fails explicitly when the lists share nobody', async () => {
    const { a } = friendLists(1);
    const { b } = friendLists(2);
    const other = { ...b, friends: b.friends.map((f) => ({ ...f, Name: `${f.Name}x` })) };
    const result = await createBotPolicy('bot').writeScript!(request('mutual_friends', [a, other]), new AbortController().signal);
    expect(result).toMatchObject({ ok: false, error: { code: 'bot/no_shared_friend' } });
  });

  it('Craigslist: converges to a deal between the two targets, the last offer accepted by the other seat', async () => {
    for (const [ratio, maxTurns] of [[0.7, 20], [0.5, 4], [1.2, 20], [0.9, 3]] as const) {
      const { buyer, seller } = craigslistTerms(600, ratio);
      for (const order of [['agent1', 'agent2'], ['agent2', 'agent1']]) {
        const tasks: [TaskPrivate, TaskPrivate] = order[0] === 'agent1' ? [buyer, seller] : [seller, buyer];
        const turns = await write(request('craigslist', tasks, maxTurns, order));
        expect(turns.length).toBeLessThanOrEqual(maxTurns);
        expect(alternates(turns, order)).toBe(true);
        const moves = turns.map((t) => ({ seat: t.seat, move: parseMove(t.action) }));
        const last = moves.at(-1)!;
        expect(last.move).toEqual({ move: 'accept' });
        const lastOffer = moves.filter((m) => m.move?.move === 'offer').at(-1)!;
        expect(lastOffer.seat).not.toBe(last.seat);
        const price = (lastOffer.move as { price: number }).price;
        expect(price).toBeGreaterThanOrEqual(Math.min(buyer.target, seller.target));
        expect(price).toBeLessThanOrEqual(Math.max(buyer.target, seller.target));
      }
    }
  });

  it('open scenarios: a short polite exchange that ends with leave, within the limit', async () => {
    for (const maxTurns of [20, 3, 1]) {
      const turns = await write(request('open', [null, null], maxTurns));
      expect(turns.length).toBeLessThanOrEqual(maxTurns);
      expect(turns.at(-1)!.action.type).toBe('leave');
      expect(alternates(turns, ['agent1', 'agent2'])).toBe(true);
      expect(turns.some((t) => /goal \d/.test(t.action.argument))).toBe(false);
    }
  });
});
