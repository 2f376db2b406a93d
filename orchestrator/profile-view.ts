import { PROFILE_FIELD_NAMES, PROFILE_FIELDS, reaches, type PartnerView, type ProfileField, type ProfileView, type RelationshipLevel } from '../protocol/index.js';
import { definitionOf, PARLEY_PROTOCOL, type SimulationProtocol } from '../simulation/index.js';
import type { Character, Scenario, ScenarioSeat } from '../scenarios/model.js';
import { relationshipBetween } from '../scenarios/relationships.js';

/** Copies the listed fields of a character into a profile view (arrays copied, absent fields skipped). */
function pick(c: Character, keep: (field: ProfileField) => boolean): ProfileView {
  const p: Record<string, unknown> = {};
  for (const key of PROFILE_FIELD_NAMES) {
    const value = c[key];
    if (value === undefined || !keep(key)) continue;
    p[key] = Array.isArray(value) ? [...value] : value;
  }
  return p as ProfileView;
}

/** A seat's own character in full, secret included (only ever sent to that seat, a mindreader or the script writer). */
export function fullProfile(c: Character): ProfileView {
  return pick(c, () => true);
}

/**
 * A character as its owner (or a mindreader, or the script writer) receives it under `protocol`:
 * in full where its definition shows every field (`parley`); else (`paper`) only the fields SOTOPIA's
 * renderer shows (no Big Five, MBTI, moral or Schwartz values, no separate decision style).
 */
export function ownProfile(c: Character, protocol: SimulationProtocol = PARLEY_PROTOCOL): ProfileView {
  if (definitionOf(protocol.name).profileFields === 'all') return fullProfile(c);
  return pick(c, (f) => PROFILE_FIELDS[f].visibility.paper.rendered);
}

/**
 * What a character looks like to a partner at `level`, iterating over PROFILE_FIELDS' rules.
 * `parley`: 0 stranger → nothing, not even the name; 1 → name; 2 acquaintance → name, age, gender,
 * occupation, pronouns, public info; 3–5 → everything but the secret.
 * `paper`: the name at every level, only fields SOTOPIA renders, and per `backgrounds`:
 * `code` → the renderer's per-level reach; `appendix` → every rendered field but the secret at any level;
 * `relationship` → Parley's levels over the rendered fields. The secret never.
 */
export function profileAtLevel(c: Character, level: RelationshipLevel, protocol: SimulationProtocol = PARLEY_PROTOCOL): ProfileView {
  const every = definitionOf(protocol.name).profileFields === 'all';
  return pick(c, (f) => {
    const rule = PROFILE_FIELDS[f].visibility;
    if (every) return reaches(rule.parley, level);
    if (!rule.paper.rendered || f === 'secret') return false;
    if (f === 'name') return true;
    switch (protocol.backgrounds) {
      case 'code':
        return reaches(rule.paper.partner, level);
      case 'appendix':
        return true;
      case 'relationship':
        return reaches(rule.parley, level);
    }
  });
}

/**
 * How `viewer` sees each other seat of the scenario. The relationship's background story is judge-only
 * under both protocols (SOTOPIA's stories often name the characters' secrets, and its agent prompt has no
 * such section); `showRelationshipStory` opts in, and then, as before, only from friend level (3) up.
 */
export function partnerViews(scenario: Scenario, viewer: string, protocol: SimulationProtocol = PARLEY_PROTOCOL): PartnerView[] {
  return scenario.seats
    .filter((s) => s.seat !== viewer)
    .map((s) => {
      // Groups: each pair has its own relationship (scenarios/relationships.ts).
      const relationship = relationshipBetween(scenario, viewer, s.seat);
      const level = relationship.level;
      const view: PartnerView = { seat: s.seat, relationship: level, profile: profileAtLevel(s.character, level, protocol) };
      if (protocol.showRelationshipStory && level >= 3 && relationship.story) view.sharedHistory = relationship.story;
      return view;
    });
}

/** Finds a seat of the scenario; throws for an unknown id (a bug: seat ids come from the scenario). */
export function scenarioSeat(scenario: Scenario, seat: string): ScenarioSeat {
  const found = scenario.seats.find((s) => s.seat === seat);
  if (!found) throw new Error(`scenario ${scenario.id} has no seat ${seat}`);
  return found;
}
