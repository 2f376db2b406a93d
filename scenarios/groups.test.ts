import { describe, expect, it } from 'vitest';
import { builtinScenarioSet, builtinScenarios } from './builtin.js';
import { checkScenario } from './check.js';
import { generateGroupScenarios } from './generate/groups.js';
import { parseScenarioLines } from './load.js';
import { relationshipBetween } from './relationships.js';

describe('built-in group scenarios (subset groups)', () => {
  const groups = generateGroupScenarios(1);

  it('three consistent three-seat scenarios: MutualFriends, auction, split; deterministic for a seed', () => {
    expect(groups.map((s) => s.kind)).toEqual(['mutual_friends', 'auction', 'split']);
    for (const s of groups) {
      expect(s.seats.map((x) => x.seat)).toEqual(['agent1', 'agent2', 'agent3']);
      expect(s.subsets).toContain('groups');
      expect(checkScenario(s)).toEqual([]);
    }
    expect(JSON.stringify(generateGroupScenarios(1))).toBe(JSON.stringify(groups));
    expect(JSON.stringify(generateGroupScenarios(2))).not.toBe(JSON.stringify(groups));
  });

  it('every goal names only its own character and its own numbers', () => {
    for (const s of groups) {
      for (const seat of s.seats) {
        for (const other of s.seats.filter((o) => o !== seat)) {
          expect(seat.goal).not.toContain(other.character.name);
          const task = other.task;
          if (task?.kind === 'auction' && task.valuation !== (seat.task?.kind === 'auction' ? seat.task.valuation : -1)) expect(seat.goal).not.toContain(`$${task.valuation}`);
        }
      }
    }
  });

  it('the default built-in set stays the twenty two-seat scenarios; a subset brings the groups in', () => {
    expect(builtinScenarioSet(1)).toEqual(builtinScenarios(1));
    expect(builtinScenarioSet(1, 'groups').filter((s) => s.subsets.includes('groups')).map((s) => s.id)).toEqual(['builtin-group-mf', 'builtin-group-auction', 'builtin-group-split']);
  });

  it('pairs have their own relationship where the scenario gives one', () => {
    const auction = groups[1]!;
    expect(relationshipBetween(auction, 'agent3', 'agent2').level).toBe(2);
    expect(relationshipBetween(auction, 'agent1', 'agent2').level).toBe(1);
  });
});

describe('the N-seat scenario format at the edge', () => {
  const base = () => JSON.parse(JSON.stringify(generateGroupScenarios(1)[1]!));
  const load = (record: unknown) => () => parseScenarioLines(`${JSON.stringify(record)}\n`, 'g.jsonl');

  it('accepts a group scenario as written', () => {
    expect(load(base())()).toHaveLength(1);
  });

  it('refuses a pair relationship naming an unknown seat, one seat twice, or one pair twice', () => {
    const unknown = base();
    unknown.relationships = [{ seats: ['agent2', 'agent9'], level: 1 }];
    expect(load(unknown)).toThrow("g.jsonl, line 1, field 'relationships.0.seats': unknown seat 'agent9' (seats: agent1, agent2, agent3)");
    const self = base();
    self.relationships = [{ seats: ['agent2', 'agent2'], level: 1 }];
    expect(load(self)).toThrow(/two different seats/);
    const twice = base();
    twice.relationships = [{ seats: ['agent2', 'agent3'], level: 1 }, { seats: ['agent3', 'agent2'], level: 2 }];
    expect(load(twice)).toThrow(/the pair agent3, agent2 has two relationships/);
  });

  it('refuses a segment for an unknown seat, duplicate seat ids and an unknown turn order', () => {
    const seg = base();
    seg.narrative.push({ text: 'x', visibleTo: ['agent7'] });
    expect(load(seg)).toThrow("field 'narrative.2.visibleTo': unknown seat 'agent7'");
    const dup = base();
    dup.seats[2].seat = 'agent2';
    expect(load(dup)).toThrow("seat id 'agent2' appears twice");
    const order = base();
    order.turnOrder = 'loudest_first';
    expect(load(order)).toThrow("field 'turnOrder'");
  });
});
