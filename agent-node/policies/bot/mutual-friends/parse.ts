/**
 * Reading a partner's utterance without trusting its wording: find the attribute values of this seat's own
 * friend list that it mentions, split it into clauses, and tell questions, denials and statements apart.
 * The partner may be this bot, an LLM or a person, so nothing here depends on the bot's own templates.
 */

/** An attribute value of the seat's own knowledge base. */
export interface Term {
  attr: string;
  value: string;
}

/** A term found in a text, with its character span. */
export interface Mention extends Term {
  start: number;
  end: number;
}

/** A clause of an utterance and what it says about the terms in it. */
export interface Clause {
  text: string;
  mentions: Mention[];
  /** Ends with a question mark. */
  question: boolean;
  /** Contains a negation outside the mentioned values ("none of my friends", "I don't know"). */
  negative: boolean;
}

const isWordChar = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}]/u.test(c);

/**
 * Every occurrence of a vocabulary term in `text`, case-insensitive, on word boundaries, longest terms
 * first so that "Auburn University - Montgomery" is not also read as "Auburn University".
 */
export function findMentions(text: string, vocabulary: readonly Term[]): Mention[] {
  const lower = text.toLowerCase();
  const taken = new Array<boolean>(text.length).fill(false);
  const found: Mention[] = [];
  const terms = [...vocabulary].filter((t) => t.value.trim().length > 0).sort((a, b) => b.value.length - a.value.length);
  for (const term of terms) {
    const needle = term.value.toLowerCase();
    let from = 0;
    for (;;) {
      const at = lower.indexOf(needle, from);
      if (at < 0) break;
      const end = at + needle.length;
      from = at + 1;
      if (isWordChar(text[at - 1]) || isWordChar(text[end])) continue;
      if (taken.slice(at, end).some(Boolean)) continue;
      for (let i = at; i < end; i++) taken[i] = true;
      found.push({ ...term, start: at, end });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

const NEGATION = /\b(no|none|not|never|nobody|neither|nor|nothing|nope)\b|n't\b|\bno one\b/i;

/**
 * Splits an utterance into clauses at sentence ends, semicolons and "but", never inside a mentioned value
 * (values such as "Oakley, Inc." contain punctuation).
 */
export function splitClauses(text: string, mentions: readonly Mention[]): Clause[] {
  const inside = (i: number) => mentions.some((m) => i >= m.start && i < m.end);
  const clauses: Clause[] = [];
  let start = 0;
  const push = (end: number, question: boolean) => {
    const raw = text.slice(start, end);
    if (raw.trim()) {
      const own = mentions.filter((m) => m.start >= start && m.end <= end);
      let masked = raw;
      for (const m of own) masked = masked.slice(0, m.start - start) + ' '.repeat(m.end - m.start) + masked.slice(m.end - start);
      clauses.push({ text: raw.trim(), mentions: own, question, negative: NEGATION.test(masked) });
    }
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inside(i)) continue;
    if (c === '.' || c === '!' || c === '?' || c === ';' || c === '\n') {
      // A question mark later in the same sentence run ("…, right?") makes it a question.
      push(i, c === '?');
      start = i + 1;
    } else if (/\s/.test(c) && /^\s*but\b/i.test(text.slice(i)) && !inside(i + 1)) {
      push(i, false);
      start = i;
    }
  }
  push(text.length, false);
  return clauses;
}

/** Reads a leading yes or no ("Yes, …", "Nope", "Sorry, I don't…"); null when the reply starts otherwise. */
export function leadingAnswer(text: string): 'yes' | 'no' | null {
  const t = text.trim().toLowerCase();
  if (/^\W*(yes|yeah|yep|yup|sure|indeed|i do|of course|absolutely)\b/.test(t)) return 'yes';
  if (/^\W*(no|nope|nah|sorry|none|not|i don't|i do not|unfortunately)\b/.test(t)) return 'no';
  return null;
}

/** Words that make a question clause without a known value still a question about friends. */
export const ASKS_ABOUT_FRIENDS = /\b(know|anyone|anybody|someone|somebody|any of (your|yours)|friends?|people|who)\b/i;

/** A question that points back at the statement before it: "Do you know anyone like that?", "Any of yours?" */
export const POINTS_BACK = /\b(like (that|them|this)|who does|who do|any of yours|how about you|what about you|you too|same here|as well)\b/i;

/**
 * The questions of an utterance, each as the values it names: "Did any of your friends study X and go to
 * Y?" is one group of two (a combination). For "Several of my friends work at Y. Do you know anyone like
 * that?" the group is the statement's values just before a question that names none.
 */
export function askedGroups(clauses: readonly Clause[]): Mention[][] {
  const groups: Mention[][] = [];
  clauses.forEach((c, i) => {
    if (!c.question) return;
    if (c.mentions.length > 0) groups.push([...c.mentions]);
    const before = clauses[i - 1];
    if (c.mentions.length === 0 && POINTS_BACK.test(c.text) && before && !before.question && !before.negative && before.mentions.length > 0) {
      groups.push([...before.mentions]);
    }
  });
  return groups;
}
