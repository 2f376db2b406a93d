import { describe, expect, it } from 'vitest';
import { builtinScenarios } from './builtin.js';
import { Scenario } from './model.js';

describe('builtinScenarios', () => {
  const all = builtinScenarios();
  const mf = all.filter((s) => s.kind === 'mutual_friends');
  const cl = all.filter((s) => s.kind === 'craigslist');

  it('has 10 MutualFriends and 10 Craigslist scenarios, all valid and uniquely identified', () => {
    expect(mf).toHaveLength(10);
    expect(cl).toHaveLength(10);
    for (const s of all) expect(Scenario.safeParse(s).success).toBe(true);
    expect(new Set(all.map((s) => s.id)).size).toBe(20);
    expect(mf.every((s) => s.subsets.includes('mutual_friends'))).toBe(true);
    expect(cl.every((s) => s.subsets.includes('craigslist_bargains'))).toBe(true);
  });

  it('is deterministic for a seed and differs across seeds', () => {
    expect(JSON.stringify(builtinScenarios(1))).toBe(JSON.stringify(all));
    expect(JSON.stringify(builtinScenarios(7))).toBe(JSON.stringify(builtinScenarios(7)));
    expect(JSON.stringify(builtinScenarios(2))).not.toBe(JSON.stringify(all));
  });

  it('gives every seat a character, a distinct secret and a goal free of the partner data', () => {
    for (const s of all) {
      const [a, b] = s.seats;
      expect(s.seats.map((x) => x.seat)).toEqual(['agent1', 'agent2']);
      expect(s.relationship.level).toBe(0);
      expect(a!.secret).toBe(a!.character.secret);
      expect(a!.secret).not.toBe(b!.secret);
      expect(a!.goal).not.toBe(b!.goal);
      expect(a!.goal).not.toContain(b!.character.name);
      expect(b!.goal).not.toContain(a!.character.name);
      expect(s.judgeOnly.length).toBeGreaterThan(0);
      for (const seg of s.narrative) expect(seg.text).not.toContain(s.judgeOnly);
    }
  });

  it('MutualFriends: 5–12 friends of 3–4 attributes per side, exactly one identical friend = truth', () => {
    for (const s of mf) {
      const [a, b] = s.seats.map((x) => x.task!);
      if (a!.kind !== 'mutual_friends' || b!.kind !== 'mutual_friends' || s.truth?.kind !== 'mutual_friends') throw new Error('bad kinds');
      for (const side of [a!, b!]) {
        expect(side.friends.length).toBeGreaterThanOrEqual(5);
        expect(side.friends.length).toBeLessThanOrEqual(12);
        expect(side.attributes.length).toBeGreaterThanOrEqual(3);
        expect(side.attributes.length).toBeLessThanOrEqual(4);
        for (const f of side.friends) expect(Object.keys(f).sort()).toEqual([...side.attributes].sort());
      }
      const key = (f: Record<string, string>) => JSON.stringify(Object.entries(f).sort());
      const bKeys = new Set(b!.friends.map(key));
      const common = a!.friends.filter((f) => bKeys.has(key(f)));
      expect(common).toHaveLength(1);
      expect(common[0]).toEqual(s.truth.answer);
      expect(s.judgeOnly).toBe(`They have 1 common friend: ${s.truth.answer.Name}.`);
      // Names identify friends: only the shared friend's name is on both lists.
      const bNames = new Set(b!.friends.map((f) => f.Name));
      expect(a!.friends.filter((f) => bNames.has(f.Name))).toHaveLength(1);
    }
  });

  it('MutualFriends values are skewed: some value repeats within a list', () => {
    let repeats = 0;
    for (const s of mf) {
      const t = s.seats[0]!.task!;
      if (t.kind !== 'mutual_friends') continue;
      const attr = t.attributes[1]!;
      const values = t.friends.map((f) => f[attr]);
      if (new Set(values).size < values.length) repeats++;
    }
    expect(repeats).toBeGreaterThanOrEqual(8);
  });

  it('Craigslist: seller target = listing price, buyer target 0.5/0.7/0.9 × price, buyer sees part of the description', () => {
    for (const s of cl) {
      const [buyer, seller] = s.seats.map((x) => x.task!);
      if (buyer!.kind !== 'craigslist' || seller!.kind !== 'craigslist' || s.truth?.kind !== 'craigslist') throw new Error('bad kinds');
      expect(buyer!.role).toBe('buyer');
      expect(seller!.role).toBe('seller');
      const price = s.truth.listingPrice;
      expect(seller!.target).toBe(price);
      expect([0.5, 0.7, 0.9].map((r) => Math.round(price * r))).toContain(buyer!.target);
      expect(seller!.item.description).toBe(s.truth.description);
      expect(buyer!.item.description.length).toBeGreaterThan(0);
      expect(buyer!.item.description.length).toBeLessThan(s.truth.description.length);
      expect(s.seats[0]!.goal).toContain(`$${buyer!.target}`);
      expect(s.seats[0]!.goal).not.toContain(`target price is $${seller!.target}`);
      expect(s.judgeOnly).toContain(`$${buyer!.target}`);
    }
  });
});
