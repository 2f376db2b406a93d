import { describe, expect, it } from 'vitest';
import { ACTION_TYPES, moveAction, type AuctionPrivate, type ScriptRequest, type SplitPrivate, type TaskKind, type TaskPrivate, type TurnEvent } from '../../../protocol/index.js';
import { tallyAuction, tallySplit } from '../../../seat-client/group-tally.js';
import type { SeatView } from '../../policy.js';
import { decideFor } from './decide.js';
import { writeBotScript } from './script-writer.js';
import { paperBotScript } from './spoken-moves.js';
import { welcome } from './testing/fixtures.js';

const SEATS3 = ['agent1', 'agent2', 'agent3'];
const item = { title: 'Touring bicycle', description: 'Steel frame.' };
const auctionTasks: AuctionPrivate[] = [
  { kind: 'auction', role: 'seller', item, valuation: 250 },
  { kind: 'auction', role: 'buyer', item, valuation: 480 },
  { kind: 'auction', role: 'buyer', item, valuation: 350 },
];
const splitTasks: SplitPrivate[] = [
  { kind: 'split', resource: 'hours', total: 90, want: 48, minimum: 28 },
  { kind: 'split', resource: 'hours', total: 90, want: 49, minimum: 24 },
  { kind: 'split', resource: 'hours', total: 90, want: 44, minimum: 23 },
];

/** Three bots in-process, round robin past seats that left; mindreaders get every other seat's task. */
function play(kind: TaskKind, tasks: TaskPrivate[], mindreaders: boolean, ended: (events: TurnEvent[]) => boolean): TurnEvent[] {
  const views: SeatView[] = SEATS3.map((seat, i) => {
    const w = welcome({ episodeId: `g-${kind}`, seat, kind, task: tasks[i]! });
    w.scenario = { ...w.scenario, seats: SEATS3 };
    const peers = mindreaders ? SEATS3.filter((s) => s !== seat).map((s) => ({ seat: s, profile: {}, goal: 'g', hints: [], task: tasks[SEATS3.indexOf(s)]! })) : [];
    return { welcome: w, peers, events: [] };
  });
  const events: TurnEvent[] = [];
  const left = new Set<string>();
  let at = 0;
  for (let turn = 0; turn < 20 && left.size < 2 && !ended(events); turn++) {
    while (left.has(SEATS3[at % 3]!)) at++;
    const i = at++ % 3;
    const action = decideFor(kind, { ...views[i]!, events: [...events] }, { v: 1, id: `r${turn}`, type: 'turn.request', turn, actions: [...ACTION_TYPES], deadlineMs: 1000 });
    events.push({ v: 1, id: `e${turn}`, type: 'turn.event', turn, seat: SEATS3[i]!, action });
    if (action.type === 'leave') left.add(SEATS3[i]!);
  }
  return events;
}

describe('group bots', () => {
  it('auction: the buyer who values it most wins, never paying more than its valuation; a mindreading buyer jumps to one step over its rival', () => {
    for (const mind of [false, true]) {
      const events = play('auction', auctionTasks, mind, (e) => tallyAuction(e, 'agent1').closed !== null);
      const t = tallyAuction(events, 'agent1');
      expect(t.closed).toBe('sold');
      expect(t.best!.seat).toBe('agent2');
      expect(t.best!.price).toBeGreaterThanOrEqual(250);
      expect(t.best!.price).toBeLessThanOrEqual(480);
      if (mind) expect(t.best!.price).toBe(350 + 24);
    }
  });

  it('split: a proposal passes with a majority, every backer getting at least its minimum', () => {
    for (const mind of [false, true]) {
      const events = play('split', splitTasks, mind, (e) => tallySplit(e, SEATS3, 90).passed !== null);
      const t = tallySplit(events, SEATS3, 90);
      expect(t.passed).not.toBeNull();
      expect(t.passed!.shares.reduce((a, b) => a + b, 0)).toBe(90);
      for (const seat of t.open!.yes) expect(t.passed!.shares[SEATS3.indexOf(seat)]!).toBeGreaterThanOrEqual(splitTasks[SEATS3.indexOf(seat)]!.minimum);
    }
  });

  it('paper scripts of a group go on past the first leave, until all but one have left', () => {
    const script = [
      { seat: 'agent1', action: { type: 'speak' as const, argument: 'Bids open.' } },
      { seat: 'agent2', action: moveAction({ move: 'offer', price: 100 }) },
      { seat: 'agent3', action: { type: 'leave' as const, argument: '' } },
      { seat: 'agent1', action: moveAction({ move: 'accept' }) },
    ];
    const out = paperBotScript('auction', SEATS3, script);
    expect(out.map((t) => t.action.type)).toEqual(['speak', 'speak', 'leave', 'speak', 'leave']);
    // Two seats: the first leave ends the script, as before.
    expect(paperBotScript('open', ['A', 'B'], [{ seat: 'A', action: { type: 'leave', argument: '' } }, { seat: 'B', action: { type: 'speak', argument: 'x' } }])).toHaveLength(1);
  });

  it('the script writer writes every voice of a group task', () => {
    const request = {
      v: 1, id: 's', type: 'script.request', episodeId: 'g',
      background: {
        scenario: { id: 'g', kind: 'split', text: 'Split 90 hours.', seats: SEATS3 },
        seats: SEATS3.map((seat, i) => ({ seat, profile: { name: `P${i}` }, goal: 'g', hints: [], task: splitTasks[i]!, partners: [] })),
        mode: 'script',
      },
      limits: { maxTurns: 20, turnDeadlineMs: 1000, actions: [...ACTION_TYPES] },
    } as ScriptRequest;
    const draft = writeBotScript(request);
    expect(draft.ok).toBe(true);
    if (!draft.ok) return;
    expect(new Set(draft.turns.map((t) => t.seat))).toEqual(new Set(SEATS3));
    expect(tallySplit(draft.turns, SEATS3, 90).passed).not.toBeNull();
  });
});
