import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeWithData, sotopiaMiniDir, sotopiaData } from '../../test/helpers/reference-data.js';
import type { Friend } from '../../protocol/index.js';
import { checkScenario } from '../check.js';
import type { Scenario } from '../model.js';
import { importSotopia, type SotopiaImport } from './sotopia.js';

/** The real SOTOPIA profiles, read in place (never copied into the repo); absent on a fresh clone. */
const data = sotopiaData();
const DATA = data.dir;

let result: SotopiaImport;
let byEnv: Map<string, Scenario[]>;
async function load(dir: string) {
  result = await importSotopia(dir);
  byEnv = new Map();
  for (const s of result.scenarios) byEnv.set(s.envId, [...(byEnv.get(s.envId) ?? []), s]);
}
const firstOfEach = () => [...byEnv.values()].map((g) => g[0]!);
const envsIn = (subset: string) => firstOfEach().filter((s) => s.subsets.includes(subset));
const key = (f: Friend) => JSON.stringify(Object.entries(f).sort(([a], [b]) => a.localeCompare(b)));

describe('SOTOPIA import on the project\'s own SOTOPIA-shaped fixture (every clone)', () => {
  beforeAll(() => load(sotopiaMiniDir()));

  it('reads every file and makes one scenario per character pair', () => {
    expect(result.counts).toEqual({ environments: 4, characters: 4, relationships: 4, pairs: 6 });
    for (const s of result.scenarios) expect(checkScenario(s), s.id).toEqual([]);
  });

  it('moves the judge-only answer out of the public text and extracts both task kinds', () => {
    const mf = result.scenarios.find((s) => s.subsets.includes('mutual_friends'))!;
    expect(mf.judgeOnly).toContain('Rosa');
    expect(JSON.stringify(mf.seats)).not.toContain('common friends');
    expect(JSON.stringify(mf.seats)).not.toContain('<p viewer');
    const cl = result.scenarios.find((s) => s.subsets.includes('craigslist_bargains'))!;
    expect(JSON.stringify(cl)).toContain('400');
  });

  it('turns goal hints into owner-only hints and tags the hard scenario', () => {
    for (const s of result.scenarios) for (const seat of s.seats) expect(seat.goal).not.toMatch(/<(extra_info|strategy_hint|clarification_hint)>/);
    expect(result.scenarios.filter((s) => s.subsets.includes('hard')).map((s) => s.envId)).toEqual(['MINI-E4', 'MINI-E4']);
  });

  it('keeps the relationship story (which names a secret) with the relationship, at the scenario\'s level', () => {
    const friends = result.scenarios.find((s) => s.id === 'MINI-C3')!;
    expect(friends.relationship).toMatchObject({ level: 3, story: expect.stringContaining('wholesale honey') });
    // No profile at the scenario's level for this pair: no story.
    expect(result.scenarios.find((s) => s.id === 'MINI-C6')!.relationship).toEqual({ level: 2 });
  });
});

describeWithData(data, 'SOTOPIA import', () => {
  beforeAll(() => load(DATA));
  it('reads 90 scenarios, 40 characters, 120 relationships and 450 character pairs', () => {
    expect(result.counts).toEqual({ environments: 90, characters: 40, relationships: 120, pairs: 450 });
    expect(result.scenarios).toHaveLength(450);
    expect(byEnv.size).toBe(90);
    for (const g of byEnv.values()) expect(g).toHaveLength(5);
    expect(new Set(result.scenarios.map((s) => s.id)).size).toBe(450);
    for (const s of result.scenarios) expect(checkScenario(s)).toEqual([]);
  });

  it('tags 14 hard, 10 mutual_friends and 10 craigslist_bargains scenarios', async () => {
    expect(envsIn('hard')).toHaveLength(14);
    expect(envsIn('mutual_friends')).toHaveLength(10);
    expect(envsIn('craigslist_bargains')).toHaveLength(10);
    const ids = JSON.parse(await readFile(path.join(DATA, 'env_ids.json'), 'utf8')) as Record<string, string[]>;
    expect(new Set(envsIn('hard').map((s) => s.envId))).toEqual(new Set(ids.sotopia_hard_env_id));
    const paper = JSON.parse(await readFile(path.join(DATA, 'agents_vs_script_mutualfriends_env_ids.json'), 'utf8')) as { mutual_friends_env_ids: string[] };
    expect(new Set(envsIn('mutual_friends').map((s) => s.envId))).toEqual(new Set(paper.mutual_friends_env_ids));
  });

  it('moves <p viewer="environment"> text to judgeOnly and out of everything a seat sees', () => {
    const mf = result.scenarios.filter((s) => s.kind === 'mutual_friends');
    expect(mf).toHaveLength(50);
    for (const s of result.scenarios) {
      const seen = JSON.stringify({ n: s.narrative, seats: s.seats });
      expect(seen).not.toContain('They have 1 common friends');
      expect(seen).not.toContain('viewer=');
      if (s.kind === 'mutual_friends') expect(s.judgeOnly).toMatch(/^They have 1 common friends: \w+\.$/);
      else expect(s.judgeOnly).toBe('');
    }
    expect(mf[0]!.narrative).toEqual([{ text: '2 strangers are meeting at a party.', visibleTo: 'all' }]);
  });

  it('extracts goal hints into owner-only hints, leaving no tags in goals', () => {
    const counts = { extra_info: 0, strategy_hint: 0, clarification_hint: 0 };
    for (const s of firstOfEach()) {
      for (const seat of s.seats) {
        expect(seat.goal).not.toMatch(/<\/?(extra_info|strategy_hint|clarification_hint)>/);
        expect(seat.goal).not.toMatch(/\(\s*\)/);
        expect(seat.goal.length).toBeGreaterThan(0);
        for (const h of seat.hints) counts[h.kind]++;
      }
    }
    expect(counts).toEqual({ extra_info: 154, strategy_hint: 25, clarification_hint: 2 });
    const divide = firstOfEach().find((s) => s.codename === 'divide_things' && s.seats[0]!.goal.includes('dividing'))!;
    expect(divide.seats[0]!.hints[0]).toEqual({ kind: 'extra_info', text: expect.stringMatching(/^Extra information: Books give you 5 points/), parenthesized: true });
  });

  it('builds characters with SOTOPIA profile fields and undoes escaped quotes', () => {
    const amara = result.scenarios.flatMap((s) => s.seats).find((x) => x.character.id === '01H5TNE5PRCAF1CK5ERS5MVZ22')!;
    expect(amara.character).toMatchObject({
      name: 'Amara Hartley', age: 29, occupation: 'Wildlife Biologist', pronouns: 'She/her', mbti: 'INFJ',
      moralValues: ['Care', 'Fairness'], secret: 'Secretly involved in animal-rights extremism',
    });
    expect(amara.secret).toBe(amara.character.secret);
    expect(JSON.stringify(result.scenarios)).not.toContain("\\\\'");
    const s8 = firstOfEach().find((s) => s.codename === 'craigslist_bargains_00000')!;
    expect(s8.narrative[0]!.text).toContain("Here's what the seller has to say");
  });

  it('takes the relationship level from the scenario and the pair story from the relationship profile', () => {
    const levels = new Map<number, number>();
    for (const s of firstOfEach()) levels.set(s.relationship.level, (levels.get(s.relationship.level) ?? 0) + 1);
    expect(Object.fromEntries(levels)).toEqual({ 0: 25, 1: 4, 2: 10, 3: 46, 4: 5 });
    const withStory = result.scenarios.filter((s) => s.relationship.story);
    expect(withStory.length).toBeGreaterThan(300);
    for (const s of withStory) expect(s.relationship.story).not.toBe('nan');
  });

  it('extracts MutualFriends task data for all 10: both friend lists and the one shared friend', () => {
    for (const s of envsIn('mutual_friends')) {
      expect(s.kind).toBe('mutual_friends');
      const [a, b] = s.seats.map((x) => x.task!);
      if (a!.kind !== 'mutual_friends' || b!.kind !== 'mutual_friends' || s.truth?.kind !== 'mutual_friends') throw new Error('kinds');
      expect(a!.attributes[0]).toBe('Name');
      expect(a!.attributes.length).toBeGreaterThanOrEqual(3);
      expect(a!.friends.length).toBeGreaterThanOrEqual(5);
      for (const f of [...a!.friends, ...b!.friends]) expect(Object.keys(f)).toEqual(a!.attributes);
      const common = a!.friends.filter((f) => b!.friends.some((g) => key(g) === key(f)));
      expect(common).toEqual([s.truth.answer]);
      expect(s.judgeOnly).toBe(`They have 1 common friends: ${s.truth.answer.Name}.`);
    }
    const alvin = envsIn('mutual_friends').find((s) => s.codename === 'mutual_friend_00009')!;
    expect(alvin.truth).toEqual({ kind: 'mutual_friends', answer: { Name: 'Alvin', School: 'Auburn University - Montgomery', Company: 'Vectren' } });
    const mable = alvin.seats[0]!.task!;
    expect(mable.kind === 'mutual_friends' && mable.friends[0]).toEqual({ Name: 'Mable', School: 'Sewanee, University of the South', Company: 'BellSouth' });
  });

  it('extracts Craigslist task data for all 10: item, listing price, each side\'s role and target', () => {
    for (const s of envsIn('craigslist_bargains')) {
      expect(s.kind).toBe('craigslist');
      const truth = s.truth;
      if (truth?.kind !== 'craigslist') throw new Error('kind');
      expect(s.narrative[0]!.text).toContain(`$${truth.listingPrice}`.replace(/\.0+$/, ''));
      expect(truth.title.length).toBeGreaterThan(3);
      const roles = s.seats.map((x) => (x.task?.kind === 'craigslist' ? x.task.role : null));
      expect(roles).toEqual(['buyer', 'seller']);
      s.seats.forEach((seat, i) => {
        const t = seat.task!;
        if (t.kind !== 'craigslist') throw new Error('kind');
        const goalPrice = Number(/\$([0-9.,]+?)\.?(?:\s|$)/.exec(seat.goal)![1]!.replace(/,/g, ''));
        expect(t.target, `${s.codename} seat ${i}`).toBe(goalPrice);
        expect(t.item.listingPrice).toBe(truth.listingPrice);
      });
    }
    const couch = envsIn('craigslist_bargains').find((s) => s.codename === 'craigslist_bargains_00008')!;
    expect(couch.truth).toMatchObject({ kind: 'craigslist', title: 'couch, loveseat, chair, and ottoman set', listingPrice: 550, category: 'furniture' });
    expect(couch.seats.map((x) => x.task)).toMatchObject([{ role: 'buyer', target: 418 }, { role: 'seller', target: 312 }]);
    const stand = envsIn('craigslist_bargains').find((s) => s.codename === 'craigslist_bargains_00005')!;
    expect(stand.truth).toMatchObject({ title: "Bell'O TV Stand - Black Glass and Wood Trim", listingPrice: 125 });
  });
});
