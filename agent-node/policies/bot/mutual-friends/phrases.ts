import type { Friend } from '../../../../protocol/index.js';

/**
 * How the MutualFriends bot talks about an attribute value ("went to X", "works at Y"). Attribute names
 * differ between data sets (cocoa's `School`, `Time Preference`, …), so phrasing goes by keywords.
 */
export function phrase(attribute: string, value: string, plural: boolean): string {
  return phrasing(attribute, value)[plural ? 'plural' : 'singular'];
}

/** "Did any of your friends go to X?" / "Do any of your friends work at Y?" */
export function askAbout(attribute: string, value: string): string {
  const p = phrasing(attribute, value);
  return `${p.past ? 'Did' : 'Do'} any of your friends ${p.base}?`;
}

interface Phrasing {
  singular: string;
  plural: string;
  /** The verb's base form, for questions. */
  base: string;
  past: boolean;
}

function phrasing(attribute: string, value: string): Phrasing {
  const a = attribute.toLowerCase();
  const verb = (singular: string, plural: string, base: string, past = false): Phrasing => ({
    singular: `${singular} ${value}`, plural: `${plural} ${value}`, base: `${base} ${value}`, past,
  });
  if (/school|college|university/.test(a)) return verb('went to', 'went to', 'go to', true);
  if (/major|study|degree/.test(a)) return verb('studied', 'studied', 'study', true);
  if (/company|employer|work|job/.test(a)) return verb('works at', 'work at', 'work at');
  if (/hobby|interest/.test(a)) return verb('enjoys', 'enjoy', 'enjoy');
  if (/location|place/.test(a)) return verb('prefers being', 'prefer being', 'prefer being');
  if (/time/.test(a)) return verb('prefers the', 'prefer the', 'prefer the');
  const what = `as ${a}`;
  return { singular: `has ${value} ${what}`, plural: `have ${value} ${what}`, base: `have ${value} ${what}`, past: false };
}

/** Which attribute holds the friend's name (cocoa and the built-in pools call it `Name`). */
export function nameAttribute(attributes: readonly string[]): string | null {
  return attributes.find((a) => /^\s*(first\s*)?name\s*$/i.test(a)) ?? attributes.find((a) => /name/i.test(a)) ?? null;
}

/** A friend's name, or a stable stand-in when the data has no name attribute. */
export function friendName(friend: Friend, nameAttr: string | null): string {
  if (nameAttr && friend[nameAttr]) return friend[nameAttr]!;
  return Object.values(friend)[0] ?? '?';
}

/** "studied Nursing and works at Meridian Rail": a friend's attributes other than the name and `skip`. */
export function describe(friend: Friend, attributes: readonly string[], nameAttr: string | null, skip?: string): string {
  return attributes
    .filter((a) => a !== nameAttr && a !== skip && friend[a] !== undefined)
    .map((a) => phrase(a, friend[a]!, false))
    .join(' and ');
}

const COUNT_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];
/** Small numbers as words, as people say them. */
export const countWord = (n: number): string => COUNT_WORDS[n] ?? String(n);

/** Whether two friend records are the same person: every attribute equal (the task's definition). */
export function sameFriend(a: Friend, b: Friend): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) if ((a[k] ?? '').trim().toLowerCase() !== (b[k] ?? '').trim().toLowerCase()) return false;
  return true;
}
