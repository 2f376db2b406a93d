import type { Friend } from '../../../../protocol/index.js';
import type { Belief } from './belief.js';
import { termKey } from './belief.js';
import { ASKS_ABOUT_FRIENDS, askedGroups, type Mention } from './parse.js';
import { countWord, describe, friendName, phrase } from './phrases.js';

/** "Do you know Oskar?": a question about a person by name (a capitalised word right after "know"). */
const NAMES_SOMEONE = /\bknow\s+(?!anyone|anybody|someone|somebody|any\b|of\b)[A-Z][\p{L}'-]+\s*\??\s*$/u;

/**
 * Truthful answers to the partner's latest questions, from the seat's whole friend list: how many of its
 * friends share the asked value (or combination of values) and, for a few, their other attributes — never
 * their names. Questions about names are not answered here: knowing the name means selecting it.
 */
export function answerQuestions(b: Belief, giveDetails: () => boolean = () => true): string[] {
  const answers: string[] = [];
  const done = new Set<string>();
  b.toAnswer.forEach((q, i) => {
    if (!q.question) return;
    const namesSomeone = NAMES_SOMEONE.test(q.text) && q.mentions.length === 0;
    const groups = namesSomeone ? [] : askedGroups(b.toAnswer.slice(Math.max(0, i - 1), i + 1)).slice(-1);
    const group = (groups[0] ?? []).filter((m) => m.attr !== b.nameAttr);
    const key = group.map(termKey).sort().join('|');
    if (group.length === 0) {
      if (answers.length === 0 && q.mentions.length === 0 && (namesSomeone || ASKS_ABOUT_FRIENDS.test(q.text))) {
        answers.push(namesSomeone ? "No, I don't know anyone by that name." : "No, I don't think I know anyone like that.");
      }
      return;
    }
    if (done.has(key)) return;
    done.add(key);
    const distinctAttrs = new Set(group.map((m) => m.attr)).size;
    if (distinctAttrs >= 2) answers.push(answerCombination(b, group));
    else for (const m of group) answers.push(answerValue(b, m, giveDetails()));
  });
  return answers;
}

const holdersOf = (b: Belief, terms: readonly Mention[]): Friend[] =>
  b.task.friends.filter((f) => terms.every((m) => f[m.attr] !== undefined && termKey({ attr: m.attr, value: f[m.attr]! }) === termKey(m)));

/** "Yes, I know two people who went to X: one studied Y, another studied Z." / "No, none of my friends went to X." */
export function answerValue(b: Belief, m: Mention, details = true): string {
  const holders = holdersOf(b, [m]);
  const k = holders.length;
  if (k === 0) return `No, none of my friends ${phrase(m.attr, m.value, true)}.`;
  const described = details ? holders.map((f) => describe(f, b.task.attributes, b.nameAttr, m.attr)).filter((d) => d.length > 0) : [];
  if (k === 1) {
    return described[0] ? `Yes, I know someone who ${phrase(m.attr, m.value, false)}, and who ${described[0]}.` : `Yes, I know someone who ${phrase(m.attr, m.value, false)}.`;
  }
  if (k <= 3 && described.length === k) {
    const parts = described.map((d, i) => `${i === 0 ? 'one' : 'another'} ${d}`);
    return `Yes, I know ${countWord(k)} people who ${phrase(m.attr, m.value, true)}: ${parts.join(', ')}.`;
  }
  return k <= 3 ? `Yes, ${countWord(k)} of my friends ${phrase(m.attr, m.value, true)}.` : `Yes, quite a few of my friends ${phrase(m.attr, m.value, true)} — ${countWord(k)} of them.`;
}

/** "Yes, I know someone who studied X and went to Y." / "No, I don't know anyone who studied X and went to Y." */
export function answerCombination(b: Belief, terms: readonly Mention[]): string {
  const k = holdersOf(b, terms).length;
  const what = joinAnd(terms.map((m) => phrase(m.attr, m.value, k > 1)));
  if (k === 0) return `No, I don't know anyone who ${joinAnd(terms.map((m) => phrase(m.attr, m.value, false)))}.`;
  return k === 1 ? `Yes, I know someone who ${what}.` : `Yes, I know ${countWord(k)} people who ${what}.`;
}

/** "a, b and c". */
export const joinAnd = (parts: readonly string[]): string =>
  parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;

/** The name of a friend, for saying it aloud. */
export const nameOf = (b: Belief, f: Friend): string => friendName(f, b.nameAttr);
