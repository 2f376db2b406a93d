import type { PartnerView, ProfileView, RelationshipLevel } from '../protocol/index.js';
import type { Character, Scenario, ScenarioSeat } from '../scenarios/model.js';

/** A seat's own character in full, secret included (only ever sent to that seat, a mindreader or the script writer). */
export function fullProfile(c: Character): ProfileView {
  const p: ProfileView = { name: c.name };
  if (c.age !== undefined) p.age = c.age;
  if (c.occupation !== undefined) p.occupation = c.occupation;
  if (c.gender !== undefined) p.gender = c.gender;
  if (c.pronouns !== undefined) p.pronouns = c.pronouns;
  if (c.publicInfo !== undefined) p.publicInfo = c.publicInfo;
  if (c.bigFive !== undefined) p.bigFive = c.bigFive;
  if (c.moralValues !== undefined) p.moralValues = [...c.moralValues];
  if (c.schwartzValues !== undefined) p.schwartzValues = [...c.schwartzValues];
  if (c.personality !== undefined) p.personality = c.personality;
  if (c.decisionStyle !== undefined) p.decisionStyle = c.decisionStyle;
  if (c.mbti !== undefined) p.mbti = c.mbti;
  p.secret = c.secret;
  return p;
}

/** Fields an acquaintance (level 2) sees: SOTOPIA's public profile. */
const ACQUAINTANCE_FIELDS = ['name', 'age', 'gender', 'occupation', 'pronouns', 'publicInfo'] as const;

/**
 * What a character looks like to someone at `level` (SOTOPIA's relationship rules):
 * 0 stranger → nothing, not even the name; 1 know_by_name → name; 2 acquaintance → name, age, gender,
 * occupation, pronouns, public info; 3–5 friend / romantic / family → everything but the secret.
 */
export function profileAtLevel(c: Character, level: RelationshipLevel): ProfileView {
  if (level <= 0) return {};
  if (level === 1) return { name: c.name };
  const full = fullProfile(c);
  delete full.secret;
  if (level >= 3) return full;
  const seen: ProfileView = {};
  for (const key of ACQUAINTANCE_FIELDS) {
    if (full[key] !== undefined) (seen as Record<string, unknown>)[key] = full[key];
  }
  return seen;
}

/**
 * How `viewer` sees each other seat of the scenario. The relationship story is shared history, known
 * to both sides, and is included from friend level (3) up: at lower levels it could reveal more than
 * the relationship allows (a stranger's name, an acquaintance's private life).
 */
export function partnerViews(scenario: Scenario, viewer: string): PartnerView[] {
  const level = scenario.relationship.level;
  return scenario.seats
    .filter((s) => s.seat !== viewer)
    .map((s) => {
      const view: PartnerView = { seat: s.seat, relationship: level, profile: profileAtLevel(s.character, level) };
      if (level >= 3 && scenario.relationship.story) view.sharedHistory = scenario.relationship.story;
      return view;
    });
}

/** Finds a seat of the scenario; throws for an unknown id (a bug: seat ids come from the scenario). */
export function scenarioSeat(scenario: Scenario, seat: string): ScenarioSeat {
  const found = scenario.seats.find((s) => s.seat === seat);
  if (!found) throw new Error(`scenario ${scenario.id} has no seat ${seat}`);
  return found;
}
