import type { Friend, MutualFriendsPrivate } from '../../protocol/index.js';
import { BUILTIN_CHARACTERS } from '../characters.js';
import { Scenario, type Character, type ScenarioSeat } from '../model.js';
import { BUILTIN_FRIEND_POOLS, type FriendPools } from '../pools.js';
import { createRng, type Rng } from '../rng.js';
import { generatedIdentity } from './identity.js';

/** Options for the MutualFriends generator (He et al. 2017's task shape). */
export interface MutualFriendsOptions {
  seed: number;
  count: number;
  pools?: FriendPools;
  characters?: readonly Character[];
  /** Scenario ids are `<idPrefix>-01`, `<idPrefix>-02`, … */
  idPrefix?: string;
  source?: string;
  subsets?: string[];
  /** Friends per side, inclusive range; default 5–12. */
  friends?: [number, number];
  /** Attributes per friend including the name, inclusive range; default 3–4. */
  attributes?: [number, number];
}

/** The public situation of every MutualFriends scenario. */
export const MUTUAL_FRIENDS_NARRATIVE =
  'Two strangers meet at a party and find out they may know some of the same people. ' +
  'Each of them has a list of friends; exactly one friend is on both lists.';

/**
 * Generates MutualFriends scenarios: each side holds 5–12 friends described by 3–4 attributes whose
 * values are drawn with a skew (a few values are common, so asking about them narrows the search), and
 * exactly one friend is identical in both lists. Deterministic for a seed.
 */
export function generateMutualFriends(opts: MutualFriendsOptions): Scenario[] {
  const rng = createRng(opts.seed);
  const pools = opts.pools ?? BUILTIN_FRIEND_POOLS;
  const characters = opts.characters ?? BUILTIN_CHARACTERS;
  const prefix = opts.idPrefix ?? 'mf';
  const out: Scenario[] = [];
  for (let i = 0; i < opts.count; i++) {
    const id = `${prefix}-${String(i + 1).padStart(2, '0')}`;
    const kb = generateKnowledgeBases(rng, pools, opts.friends ?? [5, 12], opts.attributes ?? [3, 4]);
    const [c1, c2] = rng.sample(characters, 2) as [Character, Character];
    out.push(
      mutualFriendsScenario({
        id,
        codename: `mutual_friends_${String(i + 1).padStart(2, '0')}`,
        source: opts.source ?? 'builtin',
        subsets: opts.subsets ?? ['mutual_friends'],
        sides: kb.sides,
        answer: kb.answer,
        nameAttribute: pools.nameAttribute,
        characters: [c1, c2],
      }),
    );
  }
  return out;
}

/** Everything needed to build one MutualFriends scenario (shared by the generator and the cocoa importer). */
export interface MutualFriendsParts {
  id: string;
  codename?: string;
  source: string;
  subsets: string[];
  sides: MutualFriendsPrivate[];
  answer: Friend;
  nameAttribute: string;
  /** One character per side, in turn order. */
  characters: Character[];
}

/** Builds one MutualFriends scenario between strangers; the shared friend is truth and judge-only text. */
export function mutualFriendsScenario(p: MutualFriendsParts): Scenario {
  return Scenario.parse({
    ...generatedIdentity(p),
    kind: 'mutual_friends',
    narrative: [{ text: MUTUAL_FRIENDS_NARRATIVE, visibleTo: 'all' }],
    judgeOnly: `They have 1 common friend: ${p.answer[p.nameAttribute]}.`,
    relationship: { level: 0 },
    seats: p.sides.map((side, i) => mutualFriendsSeat(`agent${i + 1}`, p.characters[i]!, side, i === 0)),
    truth: { kind: 'mutual_friends', answer: p.answer },
  });
}

/** A seat of a MutualFriends scenario: the goal names the seat's own character and turn, never the partner's data. */
export function mutualFriendsSeat(seat: string, character: Character, task: MutualFriendsPrivate, first: boolean): ScenarioSeat {
  const turn = first ? 'You speak first.' : 'The other person speaks first.';
  return {
    seat,
    character,
    goal:
      `You are ${character.name}. Find the one friend you and the other person have in common by talking ` +
      `about your ${task.friends.length} friends, without simply listing all their names, and select that ` +
      `friend by name when you are confident. ${turn}`,
    hints: [],
    secret: character.secret,
    task,
    shares: [],
  };
}

/** Two friend lists with exactly one identical friend, and that friend. */
export interface KnowledgeBases {
  sides: [MutualFriendsPrivate, MutualFriendsPrivate];
  answer: Friend;
}

/** Builds the two knowledge bases of one scenario. Exported for tests and for file-based pools. */
export function generateKnowledgeBases(rng: Rng, pools: FriendPools, friends: [number, number], attributes: [number, number]): KnowledgeBases {
  const others = Object.keys(pools.attributes);
  const nAttr = Math.min(rng.int(attributes[0], attributes[1]), others.length + 1);
  const chosen = rng.sample(others, nAttr - 1);
  const attrs = [pools.nameAttribute, ...chosen];
  const n = rng.int(friends[0], friends[1]);
  if (pools.names.length < 2 * n - 1) throw new Error(`name pool too small: need ${2 * n - 1}, have ${pools.names.length}`);

  // Skewed value choice: each attribute uses a handful of values with Zipf-like weights.
  const valueSets = chosen.map((attr) => {
    const pool = pools.attributes[attr]!;
    const values = rng.sample(pool, Math.min(pool.length, rng.int(3, 6)));
    const weights = values.map((_, rank) => 1 / (rank + 1) ** 1.3);
    return { attr, values, weights };
  });
  // Names are all distinct except the shared friend's, so no other friend can be identical.
  const names = rng.sample(pools.names, 2 * n - 1);
  const makeFriend = (name: string): Friend => {
    const f: Friend = { [pools.nameAttribute]: name };
    for (const v of valueSets) f[v.attr] = rng.weighted(v.values, v.weights);
    return f;
  };
  const answer = makeFriend(names[0]!);
  const side = (own: string[]): MutualFriendsPrivate => {
    const list = own.map(makeFriend);
    list.splice(rng.int(0, list.length), 0, { ...answer });
    return { kind: 'mutual_friends', attributes: attrs, friends: list };
  };
  const a = side(names.slice(1, n));
  const b = side(names.slice(n, 2 * n - 1));
  return { sides: [a, b], answer };
}
