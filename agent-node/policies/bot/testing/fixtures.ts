/**
 * Hand-made scenarios and an in-process episode loop for the bots' unit tests. Test support only: it does
 * not depend on `scenarios/` (the bots must work from a SeatView alone) and plays no part in real runs.
 */
import {
  parseMove,
  type Action,
  type CraigslistPrivate,
  type Friend,
  type Mode,
  type MutualFriendsPrivate,
  type PeerPrivateState,
  type SeatWelcome,
  type TaskKind,
  type TaskPrivate,
  type TurnEvent,
} from '../../../../protocol/index.js';
import type { Policy, SeatView } from '../../../policy.js';
import { botRng } from '../seed.js';

export const SEATS = ['agent1', 'agent2'] as const;
const ALL_ACTIONS = ['none', 'speak', 'non-verbal communication', 'action', 'leave'] as const;

/** A welcome frame for `seat` holding `task`. */
export function welcome(opts: { episodeId: string; scenarioId?: string; seat: string; kind: TaskKind; task: TaskPrivate | null; mode?: Mode; maxTurns?: number; partnerName?: string }): SeatWelcome {
  const other = SEATS.find((s) => s !== opts.seat) ?? 'agent2';
  return {
    v: 1,
    id: 'w0',
    type: 'seat.welcome',
    episodeId: opts.episodeId,
    seat: opts.seat,
    mode: opts.mode ?? 'agents',
    scenario: { id: opts.scenarioId ?? `scn-${opts.episodeId}`, kind: opts.kind, text: 'Two strangers meet.', seats: [...SEATS] },
    self: { seat: opts.seat, profile: { name: `Person ${opts.seat}`, secret: `SECRET-${opts.seat}` }, goal: `GOAL-${opts.seat}`, hints: [], task: opts.task },
    partners: [{ seat: other, relationship: 0, profile: opts.partnerName ? { name: opts.partnerName } : {} }],
    limits: { maxTurns: opts.maxTurns ?? 20, turnDeadlineMs: 10_000, actions: [...ALL_ACTIONS] },
  };
}

/** The private state a mindreader receives about `seat`. */
export const peerOf = (seat: string, task: TaskPrivate | null): PeerPrivateState => ({
  seat, profile: { name: `Person ${seat}`, secret: `SECRET-${seat}` }, goal: `GOAL-${seat}`, hints: [], task,
});

const POOLS: Record<string, string[]> = {
  School: ['Lakeshore State University', 'Pinecrest College', 'Saint Aldric University', 'Redwater Polytechnic', 'Cobalt Bay University', 'Old Quarry College'],
  Major: ['Marine Biology', 'Nursing', 'Linguistics', 'Civil Engineering', 'Music Theory', 'Philosophy'],
  Company: ['Kettleworks Foods', 'Meridian Rail', 'Tidewell Energy', 'Quillbright Press', 'Vireo Robotics', 'Oakley, Inc.'],
  Hobby: ['Bouldering', 'Birdwatching', 'Pottery', 'Chess', 'Sea kayaking', 'Beekeeping'],
};
const NAMES = ['Adaeze', 'Bram', 'Celestine', 'Dario', 'Elske', 'Farid', 'Greta', 'Hollis', 'Ines', 'Jovan', 'Kalani', 'Leopold', 'Marisol', 'Niamh', 'Oskar', 'Priya', 'Quentin', 'Rosalind', 'Soren', 'Tamsin', 'Ulla', 'Viggo', 'Wren', 'Xiomara', 'Yusuf', 'Zofia'];

/** Two MutualFriends lists with exactly one identical friend, skewed values (a few are common). */
export function friendLists(seed: number): { a: MutualFriendsPrivate; b: MutualFriendsPrivate; answer: Friend } {
  const rng = botRng(seed);
  const shuffle = <T>(xs: T[]) => xs.map((x) => ({ x, k: rng.next() })).sort((p, q) => p.k - q.k).map((p) => p.x);
  const attrs = shuffle(Object.keys(POOLS)).slice(0, 2 + Math.floor(rng.next() * 2));
  const values = Object.fromEntries(attrs.map((a) => [a, shuffle(POOLS[a]!).slice(0, 3 + Math.floor(rng.next() * 4))]));
  const n = 5 + Math.floor(rng.next() * 8);
  const names = shuffle(NAMES).slice(0, 2 * n - 1);
  const make = (name: string): Friend => {
    const f: Friend = { Name: name };
    for (const a of attrs) {
      const vs = values[a]!;
      f[a] = rng.weighted(vs, vs.map((_, r) => 1 / (r + 1) ** 1.3));
    }
    return f;
  };
  const answer = make(names[0]!);
  const side = (own: string[]): MutualFriendsPrivate => {
    const list = own.map(make);
    list.splice(Math.floor(rng.next() * (list.length + 1)), 0, { ...answer });
    return { kind: 'mutual_friends', attributes: ['Name', ...attrs], friends: list };
  };
  return { a: side(names.slice(1, n)), b: side(names.slice(n)), answer };
}

/** Buyer and seller terms for an item listed at `listing`, with the buyer's target at `ratio` of it. */
export function craigslistTerms(listing: number, ratio: number, bottomlines: { buyer?: number; seller?: number } = {}): { buyer: CraigslistPrivate; seller: CraigslistPrivate } {
  const item = { title: 'mountain bike', category: 'bike', listingPrice: listing, description: 'A well kept bike.' };
  return {
    buyer: { kind: 'craigslist', role: 'buyer', target: Math.round(listing * ratio), bottomline: bottomlines.buyer ?? null, item },
    seller: { kind: 'craigslist', role: 'seller', target: listing, bottomline: bottomlines.seller ?? null, item },
  };
}

export interface Played {
  events: TurnEvent[];
  failures: string[];
  /** Each seat's latest `select`. */
  selections: Record<string, string | null>;
  deal: { price: number } | null;
}

/**
 * Plays one episode in-process: round-robin over the two seats, at most `maxTurns`, ending when a seat
 * leaves. Mindreaders get the partner's private state in their view, as `peer.state` would deliver it.
 */
export async function playEpisode(opts: { episodeId: string; scenarioId?: string; kind: TaskKind; tasks: [TaskPrivate | null, TaskPrivate | null]; mode: Mode; policies: [Policy, Policy]; maxTurns?: number }): Promise<Played> {
  const maxTurns = opts.maxTurns ?? 20;
  const views: SeatView[] = SEATS.map((seat, i) => ({
    welcome: welcome({ episodeId: opts.episodeId, scenarioId: opts.scenarioId, seat, kind: opts.kind, task: opts.tasks[i]!, mode: opts.mode, maxTurns }),
    peers: opts.mode === 'mindreaders' ? [peerOf(SEATS[1 - i]!, opts.tasks[1 - i]!)] : [],
    events: [],
  }));
  const played: Played = { events: [], failures: [], selections: { agent1: null, agent2: null }, deal: null };
  let lastOffer: number | null = null;
  for (let turn = 0; turn < maxTurns; turn++) {
    const i = turn % 2;
    const result = await opts.policies[i]!.act(views[i]!, { v: 1, id: `r${turn}`, type: 'turn.request', turn, actions: [...ALL_ACTIONS], deadlineMs: 10_000 }, new AbortController().signal);
    if (!result.ok) {
      played.failures.push(`${result.error.code}: ${result.error.message}`);
      break;
    }
    const event: TurnEvent = { v: 1, id: `e${turn}`, type: 'turn.event', turn, seat: SEATS[i]!, action: result.action };
    played.events.push(event);
    for (const v of views) v.events.push(event);
    const move = parseMove(result.action);
    if (move?.move === 'select') played.selections[SEATS[i]!] = move.name;
    if (move?.move === 'offer') lastOffer = move.price;
    if (move?.move === 'accept' && lastOffer !== null) played.deal = { price: lastOffer };
    if (result.action.type === 'leave') break;
  }
  return played;
}

/** A transcript for debugging failed expectations. */
export const transcript = (events: TurnEvent[]): string => events.map((e) => `${e.turn} ${e.seat}: [${e.action.type}] ${e.action.argument}`).join('\n');

export type { Action };
