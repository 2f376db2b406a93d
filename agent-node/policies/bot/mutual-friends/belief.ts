import { parseMove, type Friend, type MutualFriendsPrivate } from '../../../../protocol/index.js';
import type { SeatView } from '../../../policy.js';
import { orderedEvents, selfSeat } from '../conversation.js';
import { askedGroups, findMentions, leadingAnswer, splitClauses, type Clause, type Mention, type Term } from './parse.js';
import { friendName, nameAttribute } from './phrases.js';

/** `attr\0value`, case-folded: the identity of an attribute value. */
export const termKey = (t: Term): string => `${t.attr}\u0000${t.value.trim().toLowerCase()}`;

/**
 * What the MutualFriends bot believes after reading the conversation: which of its friends can still be
 * the shared one, and what it learned about the partner's list. Rebuilt from the events on every turn, so
 * a reconnect or a rerun reaches the same state.
 */
export interface Belief {
  task: MutualFriendsPrivate;
  nameAttr: string | null;
  /** Every attribute value of the seat's own friends (what it can recognise in text). */
  vocabulary: Term[];
  /** Values the partner said none of their friends have. */
  lacks: Set<string>;
  /** Values the partner mentioned having or asked about. */
  has: Set<string>;
  /** Combinations of values the partner said no friend of theirs has together. */
  denied: string[][];
  /** Combinations the partner said one of their friends has together. */
  confirmed: string[][];
  /** From detailed answers: friends with `value` must have, per attribute, one of `allowed`. */
  constraints: Array<{ key: string; allowed: Map<string, Set<string>> }>;
  /** Values this seat already asked about on their own (names included). */
  asked: Set<string>;
  /** Combinations this seat already asked about (sorted keys joined by `|`). */
  askedCombos: Set<string>;
  /** Friends that can still be the shared one, most likely first. */
  candidates: Friend[];
  /** Latest `select` of this seat (null until it selects, or when the partner denied knowing that friend) and of the partner. */
  mySelection: string | null;
  partnerSelection: string | null;
  /** The partner's latest utterance since this seat last moved, split into clauses (what to answer). */
  toAnswer: Clause[];
}

const speech = (type: string): boolean => type === 'speak' || type === 'non-verbal communication';

/** Builds the belief from the seat's own task and the public events. */
export function buildBelief(view: SeatView, task: MutualFriendsPrivate): Belief {
  const me = selfSeat(view);
  const reading = readingFor(task);
  const b: Belief = {
    task, nameAttr: nameAttribute(task.attributes), vocabulary: reading.vocabulary, lacks: new Set(), has: new Set(), denied: [], confirmed: [],
    constraints: [], asked: new Set(), askedCombos: new Set(), candidates: [], mySelection: null, partnerSelection: null, toAnswer: [],
  };
  let pending: Mention[][] = [];
  for (const event of orderedEvents(view)) {
    const mine = event.seat === me;
    const move = parseMove(event.action);
    if (move?.move === 'select') {
      if (mine) b.mySelection = move.name;
      else b.partnerSelection = move.name;
      if (mine) b.toAnswer = [];
      continue;
    }
    if (!speech(event.action.type)) {
      if (mine) b.toAnswer = [];
      continue;
    }
    const text = event.action.argument;
    const { mentions, clauses } = reading.read(text);
    if (mine) {
      pending = askedGroups(clauses);
      for (const group of pending) {
        if (group.length === 1) b.asked.add(termKey(group[0]!));
        else b.askedCombos.add(group.map(termKey).sort().join('|'));
      }
      b.toAnswer = [];
      continue;
    }
    b.toAnswer = clauses;
    for (const clause of clauses) readPartnerClause(b, clause, pending);
    readBareAnswer(b, pending, clauses, text, mentions);
    pending = [];
  }
  for (const key of b.lacks) b.has.delete(key);
  // The partner does not know the friend we picked: that pick cannot be the shared friend, search on.
  if (b.mySelection && b.nameAttr && b.lacks.has(termKey({ attr: b.nameAttr, value: b.mySelection }))) b.mySelection = null;
  b.candidates = rankCandidates(b);
  return b;
}

/** A task's vocabulary, and each utterance already read against it. */
interface TaskReading {
  vocabulary: Term[];
  read(text: string): { mentions: Mention[]; clauses: Clause[] };
}

/**
 * The belief is rebuilt from every event on every turn, and reading each utterance again (its mentions and
 * clauses) was most of a MutualFriends bot's CPU, growing with the square of the episode's length. What an
 * utterance says depends only on its text and the task's vocabulary, so each is read once per task (the
 * seat's own private state, one object for its episode) and the results are only read after.
 */
const readings = new WeakMap<MutualFriendsPrivate, TaskReading>();

function readingFor(task: MutualFriendsPrivate): TaskReading {
  let r = readings.get(task);
  if (!r) {
    const vocabulary = uniqueTerms(task);
    const texts = new Map<string, { mentions: Mention[]; clauses: Clause[] }>();
    r = {
      vocabulary,
      read(text) {
        let got = texts.get(text);
        if (!got) {
          const mentions = findMentions(text, vocabulary);
          got = { mentions, clauses: splitClauses(text, mentions) };
          texts.set(text, got);
        }
        return got;
      },
    };
    readings.set(task, r);
  }
  return r;
}

/** What one clause of the partner says about their list, read against our questions still `pending`. */
function readPartnerClause(b: Belief, clause: Clause, pending: readonly Mention[][]): void {
  const { nameAttr } = b;
  const keys = clause.mentions.map(termKey);
  const conjunction = new Set(clause.mentions.filter((m) => m.attr !== nameAttr).map((m) => m.attr)).size >= 2;
  if (!clause.question && clause.negative) {
    // "No, I don't know anyone who studied X and went to Y" denies the combination, not each value.
    if (conjunction) b.denied.push(keys);
    else keys.forEach((k) => b.lacks.add(k));
    return;
  }
  keys.forEach((k) => b.has.add(k));
  // Asking about a whole description means the partner has a friend who fits it.
  if (clause.question && conjunction) b.confirmed.push(keys.filter((_, i) => clause.mentions[i]!.attr !== nameAttr));
  if (clause.question) return;
  for (const group of pending) {
    if (group.length >= 2 && group.every((g) => keys.includes(termKey(g)))) b.confirmed.push(group.map(termKey));
  }
  // A detailed yes to one of our questions: the partner described all its friends with that value.
  const answered = clause.mentions.filter((m) => pending.some((g) => g.length === 1 && termKey(g[0]!) === termKey(m)));
  if (answered.length !== 1) return;
  const asked1 = answered[0]!;
  const allowed = new Map<string, Set<string>>();
  for (const m of clause.mentions) {
    if (m.attr === asked1.attr || m.attr === nameAttr) continue;
    if (!allowed.has(m.attr)) allowed.set(m.attr, new Set());
    allowed.get(m.attr)!.add(m.value.trim().toLowerCase());
  }
  if (allowed.size > 0) b.constraints.push({ key: termKey(asked1), allowed });
}

/**
 * A bare "yes"/"no" answers the questions whose values the reply does not name — but only when its
 * first clause names nothing we know (else it answers something else), and a name is never confirmed
 * by a bare yes (whoever knows the name says it).
 */
function readBareAnswer(b: Belief, pending: readonly Mention[][], clauses: readonly Clause[], text: string, mentions: readonly Mention[]): void {
  const bare = clauses[0] && clauses[0].mentions.length === 0 ? leadingAnswer(text) : null;
  const short = (clauses[0]?.text.split(/\s+/).length ?? 99) <= 8;
  for (const group of pending) {
    if (group.some((g) => mentions.some((m) => termKey(m) === termKey(g)))) continue;
    const keys = group.map(termKey);
    if (bare === 'no') {
      if (keys.length === 1) b.lacks.add(keys[0]!);
      else b.denied.push(keys);
    } else if (bare === 'yes' && short && group.every((g) => g.attr !== b.nameAttr)) {
      keys.forEach((k) => b.has.add(k));
      if (keys.length > 1) b.confirmed.push(keys);
    }
  }
}

/** Friends consistent with what the partner said, best first; falls back to looser filters if none fit. */
function rankCandidates(b: Belief): Friend[] {
  const { friends, attributes } = b.task;
  const keysOf = (f: Friend) => attributes.filter((a) => f[a] !== undefined).map((a) => termKey({ attr: a, value: f[a]! }));
  const consistentWithLacks = (f: Friend) => {
    const keys = keysOf(f);
    return !keys.some((k) => b.lacks.has(k)) && !b.denied.some((set) => set.every((k) => keys.includes(k)));
  };
  const consistentWithDetails = (f: Friend) =>
    b.constraints.every(({ key, allowed }) => {
      if (!keysOf(f).includes(key)) return true;
      for (const [attr, values] of allowed) {
        const v = f[attr];
        if (v !== undefined && !values.has(v.trim().toLowerCase())) return false;
      }
      return true;
    });
  let pool = friends.filter((f) => consistentWithLacks(f) && consistentWithDetails(f));
  // Contradictions mean we misread the partner: trust the denials alone, then nothing.
  if (pool.length === 0) pool = friends.filter(consistentWithLacks);
  if (pool.length === 0) pool = friends.slice();
  const score = (f: Friend) =>
    attributes.reduce((s, a) => {
      if (f[a] === undefined || !b.has.has(termKey({ attr: a, value: f[a]! }))) return s;
      return s + (a === b.nameAttr ? 10 : 1);
    }, signatureConfirmed(b, f) ? 5 : 0);
  // Stable order: score, then the seat's own list order.
  return pool
    .map((f, i) => ({ f, i, s: score(f) }))
    .sort((x, y) => y.s - x.s || x.i - y.i)
    .map((x) => x.f);
}

/** Each distinct attribute value of the seat's friends, once. */
function uniqueTerms(task: MutualFriendsPrivate): Term[] {
  const seen = new Map<string, Term>();
  for (const f of task.friends) {
    for (const attr of task.attributes) {
      const value = f[attr];
      if (value === undefined || !value.trim()) continue;
      const t = { attr, value };
      if (!seen.has(termKey(t))) seen.set(termKey(t), t);
    }
  }
  return [...seen.values()];
}

/** The friend of this seat with this name, if any. */
export function friendNamed(b: Belief, name: string): Friend | undefined {
  const n = name.trim().toLowerCase();
  return b.task.friends.find((f) => friendName(f, b.nameAttr).trim().toLowerCase() === n);
}

/** The friend's values other than the name, as keys: what "someone who studied X and went to Y" describes. */
export function signature(b: Pick<Belief, 'task' | 'nameAttr'>, friend: Friend): string[] {
  return b.task.attributes.filter((a) => a !== b.nameAttr && friend[a] !== undefined).map((a) => termKey({ attr: a, value: friend[a]! }));
}

/** Whether the partner confirmed knowing someone with exactly this friend's combination of values. */
export function signatureConfirmed(b: Pick<Belief, 'task' | 'nameAttr' | 'confirmed' | 'has'>, friend: Friend): boolean {
  const sig = signature(b, friend);
  if (sig.length === 1) return b.has.has(sig[0]!);
  return b.confirmed.some((set) => sig.every((k) => set.includes(k)));
}
