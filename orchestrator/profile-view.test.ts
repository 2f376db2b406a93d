import { describe, expect, it } from 'vitest';
import { PROFILE_FIELD_NAMES, PROFILE_FIELDS, ProfileView, RELATIONSHIP_NAMES } from '../protocol/index.js';
import { definitionOf, PAPER_PROTOCOL, PARLEY_PROTOCOL } from '../simulation/index.js';
import { Character } from '../scenarios/model.js';
import { fullProfile, ownProfile, profileAtLevel } from './profile-view.js';

/** Character keys that identify a character rather than describe it: never sent as profile fields. */
const IDENTITY_KEYS = ['id', 'firstName', 'lastName'];

const character: Character = Character.parse({
  id: 'c1', name: 'Ann Lee', firstName: 'Ann', lastName: 'Lee', age: 40, occupation: 'pilot', gender: 'Woman', pronouns: 'she/her',
  publicInfo: 'Flies gliders.', bigFive: 'Openness - High', moralValues: ['Care'], schwartzValues: ['Benevolence'],
  personality: 'Calm.', decisionStyle: 'Analytical', mbti: 'INTJ', secret: 'She is afraid of heights.',
});

describe('profile fields: one definition, a visibility rule each (issue 12, Contract 4)', () => {
  it('every descriptive field of the scenario model has a visibility rule', () => {
    const modelFields = Object.keys(Character.shape).filter((k) => !IDENTITY_KEYS.includes(k));
    const missing = modelFields.filter((k) => !(k in PROFILE_FIELDS));
    expect(missing, `fields without a visibility rule in protocol/profile.ts PROFILE_FIELDS: ${missing.join(', ')}`).toEqual([]);
  });

  it('the wire profile is exactly the defined fields, each rule complete for both protocols', () => {
    expect(Object.keys(ProfileView.shape).sort()).toEqual([...PROFILE_FIELD_NAMES].sort());
    for (const name of PROFILE_FIELD_NAMES) {
      const v = PROFILE_FIELDS[name].visibility;
      expect(v.parley === 'never' || RELATIONSHIP_NAMES[v.parley] !== undefined, name).toBe(true);
      expect(typeof v.paper.rendered, name).toBe('boolean');
      expect(v.paper.partner === 'never' || RELATIONSHIP_NAMES[v.paper.partner] !== undefined, name).toBe(true);
    }
  });

  it('the projection follows the rules it iterates over (a partner never gets the secret)', () => {
    for (const protocol of [PARLEY_PROTOCOL, PAPER_PROTOCOL, { ...PAPER_PROTOCOL, backgrounds: 'appendix' as const }, { ...PAPER_PROTOCOL, backgrounds: 'relationship' as const }]) {
      for (let level = 0; level <= 5; level++) {
        const seen = profileAtLevel(character, level, protocol);
        expect(seen.secret).toBeUndefined();
        for (const key of Object.keys(seen)) {
          const v = PROFILE_FIELDS[key as keyof typeof PROFILE_FIELDS].visibility;
          if (definitionOf(protocol.name).profileFields === 'all') expect(v.parley !== 'never' && level >= v.parley, `${key} at ${level}`).toBe(true);
          else expect(v.paper.rendered, `${key} under paper`).toBe(true);
        }
      }
    }
  });

  it('own profile: in full under parley; under paper only what SOTOPIA renders, secret included', () => {
    expect(ownProfile(character, PARLEY_PROTOCOL)).toEqual(fullProfile(character));
    const own = ownProfile(character, PAPER_PROTOCOL);
    expect(Object.keys(own).sort()).toEqual(['age', 'gender', 'name', 'occupation', 'personality', 'pronouns', 'publicInfo', 'secret']);
  });
});
