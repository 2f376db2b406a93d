import type { Friend, MutualFriendsPrivate } from '../../protocol/index.js';
import { formatPrice } from '../../protocol/index.js';
import { BUILTIN_CHARACTERS } from '../characters.js';
import { builtinListings } from '../listings.js';
import { Scenario, type Character, type ScenarioSeat } from '../model.js';
import { BUILTIN_FRIEND_POOLS } from '../pools.js';
import { createRng, deriveSeed, type Rng } from '../rng.js';
import { generateKnowledgeBases } from './mutual-friends.js';

/** The subset name of the built-in group scenarios (three seats each). */
export const GROUPS_SUBSET = 'groups';

/**
 * The built-in group scenarios (`--subset groups`): a three-way MutualFriends, an auction with a seller
 * and two buyers whose valuations are private, and a three-way split that needs a majority. Deterministic
 * for a seed; ids `builtin-group-mf`, `builtin-group-auction`, `builtin-group-split`. Every seat's goal
 * names only its own character and data, so isolation audits can tell the seats apart.
 */
export function generateGroupScenarios(seed: number, opts: GroupOptions = {}): Scenario[] {
  const characters = opts.characters ?? BUILTIN_CHARACTERS;
  const naming = { prefix: opts.idPrefix ?? 'builtin-group', suffix: opts.idSuffix ?? '', source: opts.source ?? 'builtin' };
  return [
    threeWayMutualFriends(createRng(deriveSeed(seed, 'groups/mutual_friends')), characters, naming),
    auction(createRng(deriveSeed(seed, 'groups/auction')), characters, naming),
    split(createRng(deriveSeed(seed, 'groups/split')), characters, naming),
  ];
}

/** Ids and source of generated group scenarios (`parley scenarios make groups`): `<idPrefix>-mf<idSuffix>`, … */
export interface GroupOptions {
  characters?: readonly Character[];
  idPrefix?: string;
  idSuffix?: string;
  source?: string;
}

interface Naming {
  prefix: string;
  suffix: string;
  source: string;
}

/** The identity fields of one generated group scenario. */
const identity = (n: Naming, task: string, codename: string) => {
  const id = `${n.prefix}-${task}${n.suffix}`;
  return { id, envId: id, pairId: id, codename: `${codename}${n.suffix.replace(/-/g, '_')}`, source: n.source };
};

const seatOf = (seat: string, character: Character, goal: string, task: ScenarioSeat['task']): ScenarioSeat => ({
  seat, character, goal, hints: [], secret: character.secret, task, shares: [],
});

/** Three friend lists with exactly one friend on all three (and no other friend on two of them). */
function threeWayMutualFriends(rng: Rng, characters: readonly Character[], naming: Naming): Scenario {
  const pools = BUILTIN_FRIEND_POOLS;
  const kb = generateKnowledgeBases(rng, pools, [5, 7], [3, 3]);
  const [a, b] = kb.sides;
  // The third list: the shared friend among fresh names, with values from the first two lists.
  const used = new Set([...a.friends, ...b.friends].map((f) => f[pools.nameAttribute]));
  const fresh = rng.shuffle(pools.names.filter((n) => !used.has(n))).slice(0, a.friends.length - 1);
  const values = [...a.friends, ...b.friends];
  const third: MutualFriendsPrivate = {
    kind: 'mutual_friends',
    attributes: a.attributes,
    friends: fresh.map((name): Friend => {
      const f: Friend = { [pools.nameAttribute]: name };
      for (const attr of a.attributes) if (attr !== pools.nameAttribute) f[attr] = rng.pick(values)[attr]!;
      return f;
    }),
  };
  third.friends.splice(rng.int(0, third.friends.length), 0, { ...kb.answer });
  const cast = rng.sample(characters, 3) as Character[];
  const sides = [a, b, third];
  const answerName = kb.answer[pools.nameAttribute]!;
  return Scenario.parse({
    ...identity(naming, 'mf', 'group_mutual_friends'),
    subsets: [GROUPS_SUBSET, 'mutual_friends_3'],
    kind: 'mutual_friends',
    narrative: [{ text: 'Three people who have just introduced themselves share a table at a community dinner and find they may know some of the same people. Each has a list of friends; exactly one friend is on all three lists.', visibleTo: 'all' }],
    judgeOnly: `They have 1 friend in common: ${answerName}.`,
    // They know each other's names (level 1), so every prompt can name all three.
    relationship: { level: 1 },
    seats: sides.map((side, i) =>
      seatOf(`agent${i + 1}`, cast[i]!, `You are ${cast[i]!.name}. Find the one friend on all three lists by talking about your ${side.friends.length} friends, without reading out every name, and select that friend by name when you are sure.`, side),
    ),
    truth: { kind: 'mutual_friends', answer: kb.answer },
  });
}

/** A seller and two buyers: the valuations differ, and the seller's reserve lies below both. */
function auction(rng: Rng, characters: readonly Character[], naming: Naming): Scenario {
  // Things one bids for (not a sublet), worth enough for bids to climb in steps.
  const listing = rng.pick(builtinListings().filter((l) => l.price >= 100 && l.category !== 'housing'));
  const [seller, b1, b2] = rng.sample(characters, 3) as [Character, Character, Character];
  const reserve = Math.round(listing.price * 0.6);
  const high = Math.round(listing.price * rng.range(1.0, 1.2));
  const low = Math.round(listing.price * rng.range(0.7, 0.9));
  const [v1, v2] = rng.next() < 0.5 ? [high, low] : [low, high];
  const description = listing.description.join(' ');
  const item = { title: listing.title, description };
  const buyerGoal = (c: Character, v: number) =>
    `You are ${c.name}, bidding for the ${listing.title}. It is worth ${money(v)} to you: win it for as little as you can, and never pay more than that.`;
  return Scenario.parse({
    ...identity(naming, 'auction', 'group_auction'),
    subsets: [GROUPS_SUBSET, 'auction'],
    kind: 'auction',
    narrative: [
      { text: `An auction among three people: one is selling a ${listing.title}, the other two want to buy it. Bids go up until the seller accepts the highest one.`, visibleTo: 'all' },
      // Only the buyers hear this: a subset-visible segment, as group scenarios may have.
      { text: 'The two bidders arrived together and agreed to keep their budgets to themselves.', visibleTo: ['agent2', 'agent3'] },
    ],
    judgeOnly: `The buyers' valuations are ${money(v1)} and ${money(v2)}; the seller's reserve is ${money(reserve)}.`,
    // Name tags: everyone knows everyone's name (level 1); the two buyers know each other a little.
    relationship: { level: 1 },
    relationships: [{ seats: ['agent2', 'agent3'], level: 2 }],
    seats: [
      seatOf('agent1', seller, `You are ${seller.name}, auctioning your ${listing.title}. Sell it for the highest bid you can get, and not below ${money(reserve)}.`, { kind: 'auction', role: 'seller', item, valuation: reserve }),
      seatOf('agent2', b1, buyerGoal(b1, v1), { kind: 'auction', role: 'buyer', item, valuation: v1 }),
      seatOf('agent3', b2, buyerGoal(b2, v2), { kind: 'auction', role: 'buyer', item, valuation: v2 }),
    ],
    truth: { kind: 'auction', title: listing.title, description },
  });
}

/** Three housemates split a prize; each hopes for more than a third, and a majority decides. */
function split(rng: Rng, characters: readonly Character[], naming: Naming): Scenario {
  const total = 90;
  const cast = rng.sample(characters, 3) as Character[];
  const wants = cast.map(() => rng.int(35, 50));
  const minimums = wants.map(() => rng.int(20, 30));
  return Scenario.parse({
    ...identity(naming, 'split', 'group_split'),
    subsets: [GROUPS_SUBSET, 'split'],
    kind: 'split',
    narrative: [
      { text: `Three housemates won ${total} hours of free cleaning service in a raffle and must agree how to share them. A split passes when at least two of the three back it; shares go in the order the housemates are listed.`, visibleTo: 'all' },
    ],
    judgeOnly: `Their least acceptable shares are ${minimums.join(', ')} hours.`,
    relationship: { level: 2 },
    relationships: [{ seats: ['agent1', 'agent2'], level: 3 }],
    seats: cast.map((c, i) =>
      seatOf(`agent${i + 1}`, c, `You are ${c.name}. Get a good share of the ${total} cleaning hours: you hope for ${wants[i]} and would accept no fewer than ${minimums[i]}.`, { kind: 'split', resource: 'cleaning hours', total, want: wants[i]!, minimum: minimums[i]! }),
    ),
    truth: { kind: 'split', resource: 'cleaning hours', total },
  });
}

const money = (n: number) => `$${formatPrice(n)}`;
