import type { Relationship, Scenario } from './model.js';

/**
 * The relationship between two seats of a scenario: the pair's own entry in `relationships` when there
 * is one (in either order), else the scenario's `relationship`. Two-seat scenarios have only the latter.
 */
export function relationshipBetween(scenario: Scenario, a: string, b: string): Relationship {
  const pair = scenario.relationships?.find((r) => (r.seats[0] === a && r.seats[1] === b) || (r.seats[0] === b && r.seats[1] === a));
  return pair ? { level: pair.level, ...(pair.story !== undefined && { story: pair.story }) } : scenario.relationship;
}
