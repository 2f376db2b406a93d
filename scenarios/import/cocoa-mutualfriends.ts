import { z } from 'zod';
import type { Friend, MutualFriendsPrivate } from '../../protocol/index.js';
import { BUILTIN_CHARACTERS } from '../characters.js';
import { ScenarioError, ScenarioErrorCode } from '../errors.js';
import { mutualFriendsScenario } from '../generate/mutual-friends.js';
import type { Character, Scenario } from '../model.js';
import { createRng, deriveSeed } from '../rng.js';
import type { CocoaImportOptions } from './cocoa-craigslist.js';
import { readCocoaList } from './cocoa-json.js';
import { validate } from './read-json.js';

const CocoaFriend = z.record(z.string(), z.string()).refine((f) => typeof f.Name === 'string' && f.Name !== '', {
  message: 'a friend needs a Name',
  path: ['Name'],
});

/** A cocoa MutualFriends scenario: `uuid` and `kbs`, two lists of friends (attribute name → value). */
export const CocoaMutualFriendsScenario = z.object({
  uuid: z.string().min(1),
  kbs: z.tuple([z.array(CocoaFriend).min(1), z.array(CocoaFriend).min(1)]),
});

/**
 * Imports a cocoa MutualFriends scenario file into Parley scenarios between strangers, with characters
 * from Parley's own pool. Requires exactly one friend identical in both lists (the task's answer).
 */
export async function importCocoaMutualFriends(file: string, opts: CocoaImportOptions = {}): Promise<Scenario[]> {
  const characters = opts.characters ?? BUILTIN_CHARACTERS;
  const out: Scenario[] = [];
  const ids = new Set<string>();
  for (const rec of await readCocoaList(file)) {
    const where = { file, line: rec.line };
    const s = validate(CocoaMutualFriendsScenario, rec.raw, where, [rec.index]);
    if (ids.has(s.uuid)) throw new ScenarioError(ScenarioErrorCode.DuplicateId, `duplicate uuid '${s.uuid}'`, { ...where, field: `${rec.index}.uuid` });
    ids.add(s.uuid);
    const sides = s.kbs.map((friends, k): MutualFriendsPrivate => {
      const attributes = ['Name', ...Object.keys(friends[0]!).filter((a) => a !== 'Name')];
      friends.forEach((f, j) => {
        const missing = attributes.find((a) => !(a in f));
        if (missing) throw new ScenarioError(ScenarioErrorCode.MissingField, 'missing field', { ...where, field: `${rec.index}.kbs.${k}.${j}.${missing}` });
      });
      return { kind: 'mutual_friends', attributes, friends };
    });
    const key = (f: Friend) => JSON.stringify(Object.entries(f).sort(([a], [b]) => a.localeCompare(b)));
    const other = new Set(sides[1]!.friends.map(key));
    const common = sides[0]!.friends.filter((f) => other.has(key(f)));
    if (common.length !== 1) {
      throw new ScenarioError(ScenarioErrorCode.InvalidField, `expected exactly one friend identical in both lists, found ${common.length}`, { ...where, field: `${rec.index}.kbs` });
    }
    const [c1, c2] = createRng(deriveSeed(opts.seed ?? 1, s.uuid)).sample(characters, 2) as [Character, Character];
    out.push(mutualFriendsScenario({
      id: s.uuid, source: 'cocoa-mutualfriends', subsets: ['mutual_friends'],
      sides, answer: common[0]!, nameAttribute: 'Name', characters: [c1, c2],
    }));
  }
  return out;
}
