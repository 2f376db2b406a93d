import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Friend, TaskPrivate } from '../../protocol/index.js';
import type { Scenario } from '../model.js';
import { checkScenario } from '../check.js';
import { BUYER_TARGET_RATIOS, generateCraigslist, partialDescription } from './craigslist.js';
import { generateMutualFriends } from './mutual-friends.js';
import { loadFriendPools, loadListings } from './sources.js';
import { cocoaData, itWithData } from '../../test/helpers/reference-data.js';

const cocoa = cocoaData();
const COCOA = cocoa.dir;
const key = (f: Friend) => JSON.stringify(Object.entries(f).sort(([a], [b]) => a.localeCompare(b)));

/** Each generated scenario's two seat tasks, once the scenario passes the checker and both tasks are of `kind`. */
function checkedTasks<K extends TaskPrivate['kind']>(all: readonly Scenario[], kind: K): Array<[Extract<TaskPrivate, { kind: K }>, Extract<TaskPrivate, { kind: K }>]> {
  return all.map((s) => {
    expect(checkScenario(s)).toEqual([]);
    const [a, b] = s.seats.map((x) => x.task);
    if (a?.kind !== kind || b?.kind !== kind) throw new Error('kind');
    return [a, b] as [Extract<TaskPrivate, { kind: K }>, Extract<TaskPrivate, { kind: K }>];
  });
}

describe('MutualFriends generator', () => {
  it('always makes exactly one identical friend, 5–12 friends, 3–4 attributes (100 scenarios)', () => {
    const all = generateMutualFriends({ seed: 42, count: 100 });
    const sizes = new Set<number>();
    for (const [a, b] of checkedTasks(all, 'mutual_friends')) {
      sizes.add(a.friends.length);
      expect(a.friends.length).toBeGreaterThanOrEqual(5);
      expect(a.friends.length).toBeLessThanOrEqual(12);
      expect([3, 4]).toContain(a.attributes.length);
      const bKeys = new Set(b.friends.map(key));
      expect(a.friends.filter((f) => bKeys.has(key(f)))).toHaveLength(1);
    }
    expect(sizes.size).toBeGreaterThan(4);
  });

  it('is deterministic for a seed', () => {
    expect(generateMutualFriends({ seed: 5, count: 3 })).toEqual(generateMutualFriends({ seed: 5, count: 3 }));
    expect(generateMutualFriends({ seed: 5, count: 3 })).not.toEqual(generateMutualFriends({ seed: 6, count: 3 }));
  });

  itWithData(cocoa, "reads value pools from cocoa's friends schema", async () => {
    const pools = await loadFriendPools(path.join(COCOA, 'mutualfriends_friends_schema.json'));
    expect(pools.nameAttribute).toBe('Name');
    expect(pools.names.length).toBe(200);
    expect(Object.keys(pools.attributes)).toEqual(['School', 'Major', 'Company', 'Hobby', 'Time Preference', 'Location Preference']);
    const s = generateMutualFriends({ seed: 1, count: 5, pools });
    for (const x of s) expect(checkScenario(x)).toEqual([]);
    const all = new Set(Object.values(pools.attributes).flat());
    const t = s[0]!.seats[0]!.task!;
    if (t.kind !== 'mutual_friends') throw new Error('kind');
    for (const f of t.friends) for (const [k, v] of Object.entries(f)) if (k !== 'Name') expect(all.has(v)).toBe(true);
  });
});

describe('Craigslist generator', () => {
  it('sets seller target = listing price and buyer target = 0.5/0.7/0.9 × price, all ratios used', () => {
    const all = generateCraigslist({ seed: 3, count: 60 });
    const ratios = new Set<number>();
    for (const [buyer, seller] of checkedTasks(all, 'craigslist')) {
      expect(seller.target).toBe(seller.item.listingPrice);
      const ratio = BUYER_TARGET_RATIOS.find((r) => Math.round(r * seller.item.listingPrice) === buyer.target);
      expect(ratio).toBeDefined();
      ratios.add(ratio!);
      expect(buyer.item.description.length).toBeLessThan(seller.item.description.length);
    }
    expect([...ratios].sort()).toEqual([0.5, 0.7, 0.9]);
  });

  it('has a SOTOPIA variant with the whole listing in the public text', () => {
    const [s] = generateCraigslist({ seed: 1, count: 1, style: 'sotopia' });
    const truth = s!.truth!;
    if (truth.kind !== 'craigslist') throw new Error('kind');
    expect(s!.narrative[0]!.text).toContain(truth.description);
    expect(s!.seats.every((x) => x.task?.kind === 'craigslist' && x.task.item.description === truth.description)).toBe(true);
  });

  itWithData(cocoa, "reads listings from cocoa's listings sample, skipping unusable ones", async () => {
    const listings = await loadListings(path.join(COCOA, 'craigslist_listings_sample.json'));
    expect(listings.length).toBeGreaterThan(130);
    expect(listings.length).toBeLessThan(150);
    expect(new Set(listings.map((l) => l.category))).toEqual(new Set(['bike', 'car', 'electronics', 'furniture', 'housing', 'phone']));
    const s = generateCraigslist({ seed: 9, count: 20, listings });
    for (const x of s) expect(checkScenario(x)).toEqual([]);
    expect(generateCraigslist({ seed: 9, count: 20, listings })).toEqual(s);
  });

  it('shows the buyer part of a description', () => {
    expect(partialDescription(['One. Two. Three. Four.'])).toBe('One. Two.');
    expect(partialDescription(['One.', 'Two.', 'Three.'])).toBe('One.');
    expect(partialDescription(['a single long sentence without a stop at all'])).toBe('a single long sentence without …');
  });
});
