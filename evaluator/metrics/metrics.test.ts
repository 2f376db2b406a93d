import { describe, expect, it } from 'vitest';
import { clScenario, episode, mfScenario, openScenario, turns } from '../testing/fixtures.js';
import { craigslistMetrics, normalisedUtility, craigslistTargets } from './craigslist.js';
import { episodeMetrics, modelsLabel } from './episode-metrics.js';
import { mutualFriendsMetrics } from './mutual-friends.js';
import { seatMetrics } from './seat-metrics.js';
import { mentions, ngrams, words } from './text.js';

describe('words and n-grams', () => {
  it('counts letters/digits runs, keeping inner apostrophes and hyphens', () => {
    expect(words("Hello, world! Don't stop — it's a well-known 42.")).toEqual(['hello', 'world', "don't", 'stop', "it's", 'a', 'well-known', '42']);
    expect(words('  ...  ')).toEqual([]);
  });
  it('makes n-grams within one utterance only', () => {
    expect(ngrams(['a', 'b', 'c', 'd'], 3)).toEqual(['a b c', 'b c d']);
    expect(ngrams(['a', 'b'], 3)).toEqual([]);
  });
  it('finds a name as whole words, case-insensitive', () => {
    expect(mentions('do you know JANE   doe?', 'Jane Doe')).toBe(true);
    expect(mentions('Jane Doelittle is here', 'Jane Doe')).toBe(false);
    expect(mentions('MaryJane Doe', 'Jane Doe')).toBe(false);
    expect(mentions('(Jane Doe)', 'Jane Doe')).toBe(true);
  });
});

describe('seat metrics', () => {
  const t = turns([
    ['a', 'speak', 'one two three four'],
    ['b', 'speak', 'hello'],
    ['a', 'speak', 'One, two three.'],
    ['b', null],
    ['a', 'non-verbal communication', 'smiles'],
    ['a', 'action', 'select Jane Doe'],
    ['b', 'none', ''],
  ]);

  it('computes turns, words per turn, trigram repetition and non-verbal share', () => {
    const a = seatMetrics(t, 'a');
    expect(a.turns).toBe(4);
    expect(a.speechTurns).toBe(2);
    expect(a.words).toBe(7);
    expect(a.wordsPerTurn).toBe(3.5);
    // trigrams: "one two three", "two three four" | "one two three" → 3 total, 2 distinct
    expect(a.repetition).toBeCloseTo(1 / 3, 10);
    // smiles counts; `select` is a task move, not a physical action
    expect(a.nonverbalShare).toBe(0.25);
    expect(a.taskMoves).toBe(1);
    expect(a.errorTurns).toBe(0);
  });

  it('counts failed turns apart and never as moves', () => {
    const b = seatMetrics(t, 'b');
    expect(b.turns).toBe(2);
    expect(b.errorTurns).toBe(1);
    expect(b.wordsPerTurn).toBe(1);
    expect(b.repetition).toBeNull(); // one word: no trigram
    expect(b.nonverbalShare).toBe(0);
  });

  it('gives null (not 0) for a seat with no speech, and for a seat with no turn', () => {
    const silent = seatMetrics(turns([['a', 'non-verbal communication', 'waves'], ['a', 'leave', '']]), 'a');
    expect(silent.wordsPerTurn).toBeNull();
    expect(silent.repetition).toBeNull();
    expect(silent.nonverbalShare).toBe(0.5);
    const absent = seatMetrics([], 'a');
    expect(absent).toMatchObject({ turns: 0, wordsPerTurn: null, repetition: null, nonverbalShare: null });
  });
});

describe('MutualFriends metrics', () => {
  const s = mfScenario();
  it('places the first mention at index / (moves − 1) and names who said it', () => {
    const e = episode({
      scenario: s,
      moves: [['a', 'speak', 'hi'], ['b', null], ['b', 'speak', 'do you know jane doe?'], ['a', 'speak', 'Jane Doe, yes'], ['b', 'speak', 'ok']],
    });
    const m = mutualFriendsMetrics(e, s)!;
    // 4 moves (the failed turn is not a move); first mention is move 1 → 1/3
    expect(m.firstMentionTurn).toBe(1);
    expect(m.firstMentionPosition).toBeCloseTo(1 / 3, 10);
    expect(m.firstMentionSeat).toBe('b');
    expect(m.success).toBe(false);
  });
  it('is 0 for the first move, 1 for the last, and null when never named', () => {
    expect(mutualFriendsMetrics(episode({ scenario: s, moves: [['a', 'speak', 'Jane Doe?'], ['b', 'speak', 'no']] }), s)!.firstMentionPosition).toBe(0);
    expect(mutualFriendsMetrics(episode({ scenario: s, moves: [['a', 'speak', 'hi'], ['b', 'action', 'select Jane Doe']] }), s)!.firstMentionPosition).toBe(1);
    expect(mutualFriendsMetrics(episode({ scenario: s, moves: [['a', 'speak', 'Jane Doe']] }), s)!.firstMentionPosition).toBe(0);
    const never = mutualFriendsMetrics(episode({ scenario: s, moves: [['a', 'speak', 'I know Tom Lee'], ['b', 'speak', 'Jane Doelittle']] }), s)!;
    expect(never.firstMentionPosition).toBeNull();
    expect(never.firstMentionTurn).toBeNull();
    expect(mutualFriendsMetrics(episode({ scenario: s, moves: [] }), s)!.firstMentionPosition).toBeNull();
  });
  it('reads success from the recorded outcome (both selected the shared friend)', () => {
    const e = episode({ scenario: s, moves: [['a', 'action', 'select Jane Doe'], ['b', 'action', 'select Jane Doe']], outcome: { kind: 'mutual_friends', selections: { a: 'Jane Doe', b: 'Jane Doe' }, answer: 'Jane Doe', success: true } });
    expect(mutualFriendsMetrics(e, s)!.success).toBe(true);
    expect(episodeMetrics(e, s).success).toBe(true);
  });
  it("in paper runs reads success the paper's way (appendix G): the shared friend named is goal completion, the judge's goal score apart", () => {
    // No select moves (the paper's protocol has none): the recorded outcome says no success.
    const named = episode({ scenario: s, moves: [['a', 'speak', 'do you know anyone at the gym?'], ['b', 'speak', 'Jane Doe goes there'], ['a', 'speak', 'me too']] });
    const never = episode({ scenario: s, moves: [['a', 'speak', 'I know Tom Lee'], ['b', 'speak', 'Jane Doelittle']] });
    expect(episodeMetrics(named, s).success).toBe(false); // parley rule: both must select
    const paper = episodeMetrics(named, s, { mutualFriendsSuccess: 'paper' });
    expect(paper.success).toBe(true);
    expect(paper.mutualFriends).toMatchObject({ success: true, successRule: 'paper', firstMentionTurn: 1, firstMentionPosition: 0.5, firstMentionSeat: 'b' });
    expect(episodeMetrics(never, s, { mutualFriendsSuccess: 'paper' }).success).toBe(false);
    // the paper rule ignores selections: a select that names the friend counts only as a mention
    const selected = episode({ scenario: s, moves: [['a', 'action', 'select Jane Doe'], ['b', 'action', 'select Jane Doe']], outcome: { kind: 'mutual_friends', selections: { a: 'Jane Doe', b: 'Jane Doe' }, answer: 'Jane Doe', success: true } });
    expect(mutualFriendsMetrics(selected, s, 'paper')).toMatchObject({ success: true, successRule: 'paper', firstMentionTurn: 0 });
    expect(mutualFriendsMetrics(never, s, 'moves')!.successRule).toBe('moves');
  });
  it('is null for other kinds of episode', () => {
    const c = clScenario();
    expect(mutualFriendsMetrics(episode({ scenario: c }), c)).toBeNull();
  });
});

describe('Craigslist metrics', () => {
  const s = clScenario(); // buyer a target 60, seller b target 100
  const deal = (price: number) => episode({ scenario: s, moves: [['a', 'action', `offer $${price}`], ['b', 'action', 'accept']], outcome: { kind: 'craigslist', deal: true, price, acceptedBy: 'b', success: true } });

  it('normalises the price between the two targets for each side', () => {
    const m = craigslistMetrics(deal(80), s)!;
    expect(m.deal).toBe(true);
    expect(m.price).toBe(80);
    expect(m.utility).toEqual({ b: 0.5, a: 0.5 });
    const m90 = craigslistMetrics(deal(90), s)!;
    expect(m90.sellerUtility).toBeCloseTo(0.75, 10);
    expect(m90.utility['a']).toBeCloseTo(0.25, 10);
    // beyond the buyer's target the seller's utility goes negative: not clipped
    expect(normalisedUtility(50, craigslistTargets(s))['b']).toBeCloseTo(-0.25, 10);
  });
  it('has no price and no utility without a deal', () => {
    const m = craigslistMetrics(episode({ scenario: s, moves: [['a', 'action', 'offer $50'], ['b', 'action', 'reject'], ['a', 'action', 'quit']] }), s)!;
    expect(m).toMatchObject({ deal: false, price: null, utility: {}, sellerUtility: null, judgedDeal: null, effectiveDeal: false });
  });
  it('keeps the judge\'s deal apart from the explicit one, and uses it when moves show none', () => {
    const evaluation = {
      v: 1,
      judge: {
        judge: { spec: 'openai:gpt-4', visibility: 'full', temperature: 0, promptVersion: 'x' },
        evaluatedAt: '2024-01-01T00:00:00.000Z',
        seats: {},
        deal: { ok: true, deal: true, price: 70, reasoning: 'they agreed on 70' },
        calls: 1,
        usage: { prompt: 1, completion: 1 },
        latencyMs: 1,
      },
    };
    const m = craigslistMetrics(episode({ scenario: s, moves: [['a', 'speak', '70?'], ['b', 'speak', 'deal']], evaluation }), s)!;
    expect(m.deal).toBe(false);
    expect(m.judgedDeal).toBe(true);
    expect(m.judgedPrice).toBe(70);
    expect(m.effectiveDeal).toBe(true);
    expect(m.sellerUtility).toBeCloseTo(0.25, 10);
  });
  it('has no utility when the scenario (targets) is unknown', () => {
    expect(craigslistMetrics(deal(80), undefined)!.utility).toEqual({});
  });
});

describe('episode metrics', () => {
  it('treats a script-mode episode like any other, labelled by its writer', () => {
    const s = openScenario();
    const e = episode({ scenario: s, mode: 'script', writer: 'openai:gpt-4', moves: [['a', 'speak', 'I am moving away'], ['b', 'speak', 'Oh no, really?']] });
    const m = episodeMetrics(e, s);
    expect(modelsLabel(e)).toBe('writer openai:gpt-4');
    expect(m.moves).toBe(2);
    expect(m.wordsPerTurn).toBe(3.5); // seat a 4 words, seat b 3 words
    expect(m.success).toBeNull(); // open scenario
    expect(m.mutualFriends).toBeNull();
    expect(m.craigslist).toBeNull();
    expect(m.subsets).toEqual(['hard']);
  });
  it('averages words per turn over seats that spoke only', () => {
    const s = openScenario();
    const m = episodeMetrics(episode({ scenario: s, moves: [['a', 'speak', 'a b c d'], ['b', 'non-verbal communication', 'nods']] }), s);
    expect(m.wordsPerTurn).toBe(4);
    const none = episodeMetrics(episode({ scenario: s, moves: [['a', 'non-verbal communication', 'waves']] }), s);
    expect(none.wordsPerTurn).toBeNull();
  });
  it('keeps a failed episode\'s status so aggregation can leave it out', () => {
    const s = openScenario();
    const m = episodeMetrics(episode({ scenario: s, moves: [['a', 'speak', 'hi'], ['b', null]], status: 'failed' }), s);
    expect(m.status).toBe('failed');
    expect(m.seats[1]!.errorTurns).toBe(1);
  });
});
