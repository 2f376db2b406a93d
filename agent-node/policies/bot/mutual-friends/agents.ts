import { moveAction, type Action, type Friend, type MutualFriendsPrivate, type TurnRequest } from '../../../../protocol/index.js';
import type { SeatView } from '../../../policy.js';
import { ownEvents, ownMoveCount, ownTurnsLeft } from '../conversation.js';
import { botRng, seedOf, type BotRng } from '../seed.js';
import { answerQuestions, joinAnd, nameOf } from './answer.js';
import { buildBelief, friendNamed, signature, signatureConfirmed, termKey, type Belief } from './belief.js';
import { askAbout, phrase } from './phrases.js';

/**
 * The searcher's temperament, seeded by scenario and seat (the same in every mode and repeat, so modes are
 * compared with the same bot). Guessing among friends that look alike
 * instead of asking their names is what makes it fail sometimes, like the paper's agents.
 */
export interface SearcherStyle {
  /** Chance, per turn, of selecting the best candidate once the partner confirmed its description. */
  guessRate: number;
  /** Chance of describing the friends that match a question (else just how many there are). */
  detailRate: number;
}

export function searcherStyle(view: SeatView): SearcherStyle {
  const rng = botRng(seedOf('mf-style', view.welcome.scenario.id, view.welcome.seat));
  return { guessRate: rng.range(0.1, 0.5), detailRate: rng.range(0.4, 1) };
}

const select = (name: string): Action => moveAction({ move: 'select', name });

/**
 * MutualFriends in `agents` mode, in the spirit of the CoCoA rule-based baseline: answer the partner's
 * questions, ask about a frequent value among the friends that can still be the shared one, then about the
 * best candidate's whole description, narrow the candidates from the answers, and select by name when one
 * is left, the partner names one of ours, or the description matches (sometimes a guess).
 */
export function decideMutualFriends(view: SeatView, request: TurnRequest, task: MutualFriendsPrivate): Action {
  const b = buildBelief(view, task);
  const rng = botRng(seedOf('mf', view.welcome.episodeId, view.welcome.seat, request.turn));
  const style = searcherStyle(view);
  const settled = settle(view, b);
  if (settled) return settled;

  const top = b.candidates[0]!;
  // A name the partner brought up (asked about, confirmed) that is on our list is the shared friend.
  const named = b.task.friends.find((f) => b.nameAttr && b.has.has(termKey({ attr: b.nameAttr, value: nameOf(b, f) })));
  if (named && nameOf(b, named) !== b.mySelection) return select(nameOf(b, named));
  if (!b.mySelection) {
    if (b.candidates.length === 1) return select(nameOf(b, top));
    if (ownTurnsLeft(view, request) <= 1) return select(nameOf(b, top));
    const questioned = b.toAnswer.some((c) => c.question);
    if (!questioned && signatureConfirmed(b, top) && rng.next() < style.guessRate) return select(nameOf(b, top));
  }

  const parts = answerQuestions(b, () => rng.next() < style.detailRate);
  // Tell the partner its pick is not on our list, so it can search on.
  if (b.partnerSelection && !friendNamed(b, b.partnerSelection) && !saidUnknown(view, b.partnerSelection)) parts.unshift(`I don't know ${b.partnerSelection}.`);
  if (b.mySelection) parts.push(`I went with ${b.mySelection}. Do you know ${b.mySelection}?`);
  else parts.push(nextQuestion(b, rng, ownMoveCount(view)));
  if (ownMoveCount(view) === 0 && !b.toAnswer.some((c) => c.question)) parts.unshift('Hi!');
  return { type: 'speak', argument: tidy(parts.join(' ')) };
}

/**
 * After selections: follow the partner's pick if we know that friend; once both picked, leave — unless the
 * partner's pick is a stranger to us, which we say once so that it can search on.
 */
function settle(view: SeatView, b: Belief): Action | null {
  if (!b.partnerSelection) return null;
  const theirs = friendNamed(b, b.partnerSelection);
  if (theirs && nameOf(b, theirs) !== b.mySelection) return select(nameOf(b, theirs));
  if (!b.mySelection) return null;
  if (!theirs && !saidUnknown(view, b.partnerSelection)) {
    return { type: 'speak', argument: `I don't know ${b.partnerSelection}. I went with ${b.mySelection}. Do you know ${b.mySelection}?` };
  }
  return { type: 'leave', argument: '' };
}

/** Whether this seat already told the partner it does not know `name`. */
const saidUnknown = (view: SeatView, name: string): boolean =>
  ownEvents(view).some((e) => e.action.type === 'speak' && e.action.argument.includes(`I don't know ${name}.`));

/**
 * The next question: a name once the best candidate's description is confirmed; that description once few
 * candidates are left (or the single values run out); otherwise a value frequent among the candidates.
 */
function nextQuestion(b: Belief, rng: BotRng, movesSoFar: number): string {
  const top = b.candidates[0]!;
  const nameAsked = (f: Friend) => b.nameAttr !== null && b.asked.has(termKey({ attr: b.nameAttr, value: nameOf(b, f) }));
  if (signatureConfirmed(b, top)) {
    const lookAlikes = b.candidates.filter((f) => sameSignature(b, f, top) && !nameAsked(f));
    if (lookAlikes[0]) return `Do you know ${nameOf(b, lookAlikes[0])}?`;
  }
  const single = frequentValue(b, rng);
  const unconfirmed = b.candidates.find((f) => !signatureConfirmed(b, f) && !askedSignature(b, f));
  if (unconfirmed && (!single || b.candidates.length <= 4 || (movesSoFar >= 3 && rng.next() < 0.5))) {
    return describeQuestion(b, unconfirmed, rng);
  }
  if (single) return single;
  const unasked = b.candidates.find((f) => !nameAsked(f)) ?? top;
  return `Do you know ${nameOf(b, unasked)}?`;
}

const sameSignature = (b: Belief, f: Friend, g: Friend): boolean => signature(b, f).join('|') === signature(b, g).join('|');
const askedSignature = (b: Belief, f: Friend): boolean => {
  const sig = signature(b, f);
  return sig.length > 1 ? b.askedCombos.has(sig.slice().sort().join('|')) : sig.every((k) => b.asked.has(k));
};

/** "Do you know anyone who studied X, went to Y and enjoys Z?" */
function describeQuestion(b: Belief, f: Friend, rng: BotRng): string {
  const attrs = b.task.attributes.filter((a) => a !== b.nameAttr && f[a] !== undefined);
  const what = joinAnd(attrs.map((a) => phrase(a, f[a]!, false)));
  return rng.next() < 0.5 ? `Do you know anyone who ${what}?` : `I have a friend who ${what}. Do you know anyone like that?`;
}

/** A question about one value, chosen with probability growing with its frequency among the candidates. */
function frequentValue(b: Belief, rng: BotRng): string | null {
  const counts = new Map<string, { attr: string; value: string; n: number }>();
  for (const f of b.candidates) {
    for (const attr of b.task.attributes) {
      if (attr === b.nameAttr || f[attr] === undefined) continue;
      const key = termKey({ attr, value: f[attr]! });
      if (b.has.has(key) || b.lacks.has(key) || b.asked.has(key)) continue;
      const c = counts.get(key) ?? { attr, value: f[attr]!, n: 0 };
      c.n++;
      counts.set(key, c);
    }
  }
  const options = [...counts.values()];
  if (options.length === 0) return null;
  const pick = rng.weighted(options, options.map((o) => o.n * o.n));
  switch (Math.floor(rng.next() * 3)) {
    case 0:
      return `Do you know anyone who ${phrase(pick.attr, pick.value, false)}?`;
    case 1:
      return askAbout(pick.attr, pick.value);
    default:
      return pick.n > 1
        ? `Several of my friends ${phrase(pick.attr, pick.value, true)}. Do you know anyone like that?`
        : `One of my friends ${phrase(pick.attr, pick.value, false)}. Do you know anyone who does?`;
  }
}


/** Values ending in a period ("Oakley, Inc.") would otherwise end a sentence with "..". */
export const tidy = (text: string): string => text.replace(/\.\.(?=\s|$)/g, '.');
