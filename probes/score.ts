import type { ScorerKind } from './definitions.js';

/** A scored answer: the score (exact/yes-no 1 or 0, numeric absolute error, judge 0–10), or why none. */
export type Scored = { score: number } | { score: null; why: string };

/** Case, surrounding quotes, punctuation and spaces do not change an exact answer. */
export function normaliseAnswer(text: string): string {
  // Non-ASCII as \u escapes: the CLI bundle stays ASCII, read as a one-byte string (test/cli-bundle.test.ts).
  return text.trim().toLowerCase().replace(/^["'\u201c\u2018\s]+|["'\u201d\u2019.!\s]+$/g, '').replace(/\s+/g, ' ');
}

/** The first number in a reply (`$1,200` → 1200), or null. */
export function firstNumber(text: string): number | null {
  const m = /-?\d[\d,]*(?:\.\d+)?/.exec(text);
  if (!m) return null;
  const n = Number(m[0].replace(/,/g, ''));
  return Number.isFinite(n) ? n : null;
}

/** `yes` or `no` from the first word of a reply, or null. */
export function yesNo(text: string): 'yes' | 'no' | null {
  const first = normaliseAnswer(text).split(/[\s,.;:!]+/)[0];
  return first === 'yes' || first === 'no' ? first : null;
}

/** Scores an answer by a rule (the judge's scorer is `evaluator`-free and lives in judge-score.ts). */
export function scoreByRule(kind: Exclude<ScorerKind, 'judge'>, answer: string, truth: string | number): Scored {
  switch (kind) {
    case 'exact':
      return { score: normaliseAnswer(answer) === normaliseAnswer(String(truth)) ? 1 : 0 };
    case 'numeric': {
      const n = firstNumber(answer);
      return n === null ? { score: null, why: 'the answer holds no number' } : { score: Math.abs(n - Number(truth)) };
    }
    case 'yesno': {
      const yn = yesNo(answer);
      return yn === null ? { score: null, why: 'the answer is neither yes nor no' } : { score: yn === String(truth) ? 1 : 0 };
    }
    case 'none':
      return { score: null, why: 'a free question has no ground truth' };
  }
}
