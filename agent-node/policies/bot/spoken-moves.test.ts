import { describe, expect, it } from 'vitest';
import { heardMove, moveAction, parseMove, speakMove, type TaskKind, type TaskPrivate, type TurnEvent } from '../../../protocol/index.js';
import type { SeatView } from '../../policy.js';
import { createBotPolicy } from './index.js';
import { paperBotScript } from './spoken-moves.js';
import { craigslistTerms, friendLists, SEATS, transcript, welcome } from './testing/fixtures.js';

/** Plays bot vs bot in-process with the seats told `--protocol paper`, until a leave or 21 moves. */
async function playPaper(kind: TaskKind, tasks: [TaskPrivate, TaskPrivate]): Promise<TurnEvent[]> {
  const bots = [createBotPolicy('bot'), createBotPolicy('bot')];
  const views: SeatView[] = SEATS.map((seat, i) => {
    const w = welcome({ episodeId: `paper-${kind}`, seat, kind, task: tasks[i]! });
    w.protocol = { name: 'paper', backgrounds: 'code', scriptFormat: 'text' };
    return { welcome: w, peers: [], events: [] };
  });
  const events: TurnEvent[] = [];
  for (let turn = 0; turn < 21; turn++) {
    const i = turn % 2;
    const r = await bots[i]!.act(views[i]!, { v: 1, id: `r${turn}`, type: 'turn.request', turn, actions: ['none', 'speak', 'non-verbal communication', 'action', 'leave'], deadlineMs: 1000 }, new AbortController().signal);
    if (!r.ok) throw new Error(r.error.message);
    const e: TurnEvent = { v: 1, id: `e${turn}`, type: 'turn.event', turn, seat: SEATS[i]!, action: r.action };
    events.push(e);
    for (const v of views) v.events.push(e);
    if (r.action.type === 'leave') break;
  }
  return events;
}

describe('bots under --protocol paper: choices spoken, not moved', () => {
  it('a spoken choice reads back as the move it stands for; ordinary speech never does', () => {
    for (const m of [{ move: 'select', name: 'Jane Doe' }, { move: 'offer', price: 120.5 }, { move: 'accept' }, { move: 'reject' }] as const) {
      expect(heardMove(speakMove(m))).toEqual(m);
    }
    expect(speakMove({ move: 'quit' })).toEqual({ type: 'leave', argument: '' });
    expect(heardMove({ type: 'speak', argument: 'I offer you my help.' })).toBeNull();
    expect(heardMove(moveAction({ move: 'accept' }))).toBeNull();
  });

  it('MutualFriends: both bots name the shared friend aloud, then one leaves; no task move', async () => {
    const { a, b, answer } = friendLists(7);
    const events = await playPaper('mutual_friends', [a, b]);
    expect(events.every((e) => parseMove(e.action) === null), transcript(events)).toBe(true);
    const named = events.map((e) => heardMove(e.action)).filter((m) => m?.move === 'select');
    expect(named.map((m) => m?.move === 'select' && m.name)).toEqual([answer.Name, answer.Name]);
    expect(events[events.length - 1]!.action.type).toBe('leave');
  });

  it('Craigslist: offers and the acceptance are spoken, then a bot leaves', async () => {
    const { buyer, seller } = craigslistTerms(200, 0.8);
    const events = await playPaper('craigslist', [buyer, seller]);
    expect(events.every((e) => parseMove(e.action) === null), transcript(events)).toBe(true);
    expect(events.some((e) => heardMove(e.action)?.move === 'offer')).toBe(true);
    expect(events[events.length - 1]!.action.type).toBe('leave');
  });

  it('a bot script: task moves spoken, and a leave once the task is over', () => {
    const turns = paperBotScript('craigslist', ['A', 'B'], [
      { seat: 'A', action: moveAction({ move: 'offer', price: 90 }) },
      { seat: 'B', action: moveAction({ move: 'accept' }) },
    ]);
    expect(turns).toEqual([
      { seat: 'A', action: { type: 'speak', argument: 'I offer $90.' } },
      { seat: 'B', action: { type: 'speak', argument: 'I accept your offer. Deal.' } },
      { seat: 'A', action: { type: 'leave', argument: '' } },
    ]);
  });
});
