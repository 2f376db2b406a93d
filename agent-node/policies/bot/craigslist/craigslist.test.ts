import { describe, expect, it } from 'vitest';
import { moveAction, parseMove, type Action, type CraigslistPrivate, type TurnEvent } from '../../../../protocol/index.js';
import type { SeatView } from '../../../policy.js';
import { createBotPolicy } from '../index.js';
import { craigslistTerms, playEpisode, transcript, welcome, type Played } from '../testing/fixtures.js';
import { decideCraigslist } from './agents.js';
import { limitOf, negotiatorStyle } from './terms.js';

const RATIOS = [0.5, 0.7, 0.9] as const;
const LISTINGS = [120, 260, 455, 800, 1350, 2900];

/** The limit the bot in `seat` of episode `episodeId` works with (its style is seeded by both). */
function limitFor(episodeId: string, seat: string, task: CraigslistPrivate): number {
  const view: SeatView = { welcome: welcome({ episodeId, seat, kind: 'craigslist', task }), peers: [], events: [] };
  return limitOf(task, negotiatorStyle(view).tolerance);
}

async function negotiate(mode: 'agents' | 'mindreaders', bottomlines = false): Promise<Array<{ id: string; buyer: CraigslistPrivate; seller: CraigslistPrivate; played: Played }>> {
  const out = [];
  for (const listing of LISTINGS) {
    for (const ratio of RATIOS) {
      const { buyer, seller } = craigslistTerms(listing, ratio, bottomlines ? { buyer: Math.round(listing * (ratio + 0.1)), seller: Math.round(listing * 0.8) } : {});
      const id = `cl-${listing}-${ratio}`;
      const played = await playEpisode({ episodeId: id, kind: 'craigslist', tasks: [buyer, seller], mode, policies: [createBotPolicy('bot'), createBotPolicy('bot:craigslist')] });
      expect(played.failures).toEqual([]);
      out.push({ id, buyer, seller, played });
    }
  }
  return out;
}

function offersBy(played: Played, seat: string): number[] {
  return played.events.filter((e) => e.seat === seat).map((e) => parseMove(e.action)).flatMap((m) => (m?.move === 'offer' ? [m.price] : []));
}

describe('Craigslist bot (agents mode)', () => {
  it('opens near its own target, concedes monotonically and never offers past its limit', async () => {
    for (const withBottomlines of [false, true]) {
      for (const { id, buyer, seller, played } of await negotiate('agents', withBottomlines)) {
        const b = offersBy(played, 'agent1');
        const s = offersBy(played, 'agent2');
        const bLimit = limitFor(id, 'agent1', buyer);
        const sLimit = limitFor(id, 'agent2', seller);
        for (const p of b) expect(p, transcript(played.events)).toBeLessThanOrEqual(bLimit + 1e-6);
        for (const p of s) expect(p, transcript(played.events)).toBeGreaterThanOrEqual(sLimit - 1e-6);
        if (b[0] !== undefined) expect(b[0]).toBeLessThanOrEqual(buyer.target);
        if (s[0] !== undefined) expect(s[0]).toBeGreaterThanOrEqual(seller.target);
        expect(b).toEqual([...b].sort((x, y) => x - y));
        expect(s).toEqual([...s].sort((x, y) => y - x));
        if (played.deal) {
          expect(played.deal.price).toBeLessThanOrEqual(bLimit + 1e-6);
          expect(played.deal.price).toBeGreaterThanOrEqual(sLimit - 1e-6);
        }
      }
    }
  });

  it('reaches a mix of deals and no-deals, quitting when no deal is in reach', async () => {
    const runs = await negotiate('agents');
    const deals = runs.filter((r) => r.played.deal).length;
    expect(deals).toBeGreaterThan(0);
    expect(deals).toBeLessThan(runs.length);
    // A buyer at half the listing price cannot meet a seller at the listing price: someone walks away.
    for (const r of runs.filter((x) => x.buyer.target === Math.round(x.seller.target * 0.5))) {
      expect(r.played.deal).toBeNull();
      expect(r.played.events.some((e) => parseMove(e.action)?.move === 'quit'), transcript(r.played.events)).toBe(true);
    }
    // At 0.9 the limits overlap: always a deal.
    for (const r of runs.filter((x) => x.buyer.target === Math.round(x.seller.target * 0.9))) expect(r.played.deal, r.id).not.toBeNull();
  });

  it('accepts an offer inside its limit that beats its own next offer, and leaves once the deal is closed', () => {
    const { buyer } = craigslistTerms(500, 0.9);
    let t = 0;
    const ev = (seat: string, action: Action): TurnEvent => ({ v: 1, id: `e${t}`, type: 'turn.event', turn: t++, seat, action });
    const events = [
      ev('agent1', { type: 'speak', argument: 'Hi!' }),
      ev('agent2', moveAction({ move: 'offer', price: 460 })),
      ev('agent1', moveAction({ move: 'offer', price: 400 })),
      ev('agent2', moveAction({ move: 'offer', price: 405 })),
    ];
    const view: SeatView = { welcome: welcome({ episodeId: 'ep-acc', seat: 'agent1', kind: 'craigslist', task: buyer }), peers: [], events };
    const req = { v: 1 as const, id: 'r', type: 'turn.request' as const, turn: 4, actions: ['speak', 'action', 'leave'] as Action['type'][], deadlineMs: 1000 };
    expect(decideCraigslist(view, req, buyer)).toEqual({ type: 'action', argument: 'accept' });
    view.events.push(ev('agent1', moveAction({ move: 'accept' })));
    expect(decideCraigslist(view, { ...req, turn: 6 }, buyer).type).toBe('leave');
  });

  it('is deterministic for an episode id and seat', async () => {
    const { buyer, seller } = craigslistTerms(700, 0.7);
    const run = (id: string) => playEpisode({ episodeId: id, kind: 'craigslist', tasks: [buyer, seller], mode: 'agents', policies: [createBotPolicy('bot'), createBotPolicy('bot')] });
    expect(transcript((await run('same')).events)).toBe(transcript((await run('same')).events));
  });
});

describe('Craigslist bot (mindreaders mode)', () => {
  it('uses the partner’s terms from peer.state: deals whenever the limits meet, in at most three turns', async () => {
    const mind = await negotiate('mindreaders');
    for (const { id, buyer, seller, played } of mind) {
      const overlap = limitFor(id, 'agent1', buyer) >= limitFor(id, 'agent2', seller);
      if (overlap) {
        expect(played.deal, transcript(played.events)).not.toBeNull();
        expect(played.events.length).toBeLessThanOrEqual(3);
      } else {
        expect(played.deal).toBeNull();
      }
    }
    const agents = await negotiate('agents');
    const mean = (rs: typeof mind) => rs.reduce((s, r) => s + r.played.events.length, 0) / rs.length;
    expect(mind.filter((r) => r.played.deal).length).toBeGreaterThanOrEqual(agents.filter((r) => r.played.deal).length);
    expect(mean(mind)).toBeLessThan(mean(agents));
  });
});
