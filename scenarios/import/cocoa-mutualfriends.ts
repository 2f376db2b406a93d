import * as z from 'zod';
import type { Friend, MutualFriendsPrivate } from '../../protocol/index.js';
import { ScenarioError, ScenarioErrorCode } from '../errors.js';
import { mutualFriendsScenario } from '../generate/mutual-friends.js';
import type { Scenario } from '../model.js';
import { cocoaScenarios, type CocoaImportOptions } from './cocoa-json.js';

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
  const out: Scenario[] = [];
  for await (const { s, where, index, characters: [c1, c2] } of cocoaScenarios(file, CocoaMutualFriendsScenario, opts)) {
    const sides = s.kbs.map((friends, k): MutualFriendsPrivate => {
      const attributes = ['Name', ...Object.keys(friends[0]!).filter((a) => a !== 'Name')];
      friends.forEach((f, j) => {
        const missing = attributes.find((a) => !(a in f));
        if (missing) throw new ScenarioError(ScenarioErrorCode.MissingField, 'missing field', { ...where, field: `${index}.kbs.${k}.${j}.${missing}` });
      });
      return { kind: 'mutual_friends', attributes, friends };
    });
    const key = (f: Friend) => JSON.stringify(Object.entries(f).sort(([a], [b]) => a.localeCompare(b)));
    const other = new Set(sides[1]!.friends.map(key));
    const common = sides[0]!.friends.filter((f) => other.has(key(f)));
    if (common.length !== 1) {
      throw new ScenarioError(ScenarioErrorCode.InvalidField, `expected exactly one friend identical in both lists, found ${common.length}`, { ...where, field: `${index}.kbs` });
    }
    out.push(mutualFriendsScenario({
      id: s.uuid, source: 'cocoa-mutualfriends', subsets: ['mutual_friends'],
      sides, answer: common[0]!, nameAttribute: 'Name', characters: [c1, c2],
    }));
  }
  return out;
}
