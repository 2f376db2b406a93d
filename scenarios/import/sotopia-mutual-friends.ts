import type { Friend, Hint, MutualFriendsPrivate } from '../../protocol/index.js';

/** Either a value or where/why extraction failed (an expected failure on odd data, not a bug). */
export type Extracted<T> = { ok: true; value: T } | { ok: false; field: string; detail: string };

/**
 * Reads one side's friends from a SOTOPIA MutualFriends goal hint:
 *   "You know the following friends: \n Alvin: School: Auburn University  Company: Vectren \n …"
 * Each line is `<name>: <Attr>: <value>  <Attr>: <value> …`, attribute pairs separated by two spaces.
 */
export function parseFriendList(extraInfo: string): MutualFriendsPrivate | null {
  const friends: Friend[] = [];
  let attributes: string[] | null = null;
  for (const rawLine of extraInfo.split('\n')) {
    const line = rawLine.trim();
    if (line === '' || /^you know the following friends/i.test(line)) continue;
    const colon = line.indexOf(': ');
    if (colon <= 0) return null;
    const friend: Friend = { Name: line.slice(0, colon).trim() };
    const attrs: string[] = [];
    for (const pair of line.slice(colon + 2).split(/\s{2,}/)) {
      const at = pair.indexOf(':');
      if (at <= 0) return null;
      const attr = pair.slice(0, at).trim();
      friend[attr] = pair.slice(at + 1).trim();
      attrs.push(attr);
    }
    if (attributes === null) attributes = attrs;
    else if (attributes.join('\u0000') !== attrs.join('\u0000')) return null;
    friends.push(friend);
  }
  if (!attributes || friends.length === 0) return null;
  return { kind: 'mutual_friends', attributes: ['Name', ...attributes], friends };
}

/** The shared friend's name from SOTOPIA's judge-only line "They have 1 common friends: Alvin." */
export function commonFriendName(judgeOnly: string): string | null {
  const m = /They have 1 common friends?:\s*(.+?)\.?\s*$/im.exec(judgeOnly);
  return m ? m[1]!.trim() : null;
}

/**
 * Task data of a SOTOPIA MutualFriends scenario: both friend lists (from each goal's extra_info) and the
 * shared friend, which must be the one friend identical in both lists and the one named by the judge text.
 */
export function extractMutualFriends(hints: Hint[][], judgeOnly: string): Extracted<{ sides: MutualFriendsPrivate[]; answer: Friend }> {
  const sides: MutualFriendsPrivate[] = [];
  for (let i = 0; i < hints.length; i++) {
    const info = hints[i]!.find((h) => h.kind === 'extra_info');
    const side = info ? parseFriendList(info.text) : null;
    if (!side) return { ok: false, field: `agent_goals.${i}`, detail: 'no friend list found in <extra_info>' };
    sides.push(side);
  }
  const name = commonFriendName(judgeOnly);
  if (!name) return { ok: false, field: 'scenario', detail: 'no "They have 1 common friends: X" judge-only text' };
  const key = (f: Friend) => JSON.stringify(Object.entries(f).sort(([a], [b]) => a.localeCompare(b)));
  const others = new Set(sides.slice(1).flatMap((s) => s.friends.map(key)));
  const common = sides[0]!.friends.filter((f) => others.has(key(f)) && sides.every((s) => s.friends.some((g) => key(g) === key(f))));
  if (common.length !== 1) return { ok: false, field: 'agent_goals', detail: `expected exactly one identical friend in both lists, found ${common.length}` };
  if (common[0]!.Name !== name) return { ok: false, field: 'scenario', detail: `judge text names ${name} but the identical friend is ${common[0]!.Name}` };
  return { ok: true, value: { sides, answer: common[0]! } };
}
