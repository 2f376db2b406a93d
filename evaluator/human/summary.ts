import { positionBiasOfPairs, type PositionBias } from '../compare/position-bias.js';
import { wilson } from '../stats/wilson.js';
import { latestAnswers, type Annotation } from './annotation.js';
import { cohenKappa, fleissKappa } from './kappa.js';

/** A judge verdict as `parley compare --judge` writes it (only the fields matched here). */
export interface JudgeVerdict {
  key: string;
  ok: boolean;
  /** `tie`: judged in both orders, the two answers disagreed (counted as the judge preferring neither). */
  winner?: 'A' | 'B' | 'tie';
}

/** What `compare --human` and `report` print about a human study. */
export interface HumanSummary {
  runA: string;
  runB: string;
  annotators: number;
  pairs: number;
  answers: number;
  /** Share of answers preferring RUN_A, with its 95% Wilson interval. */
  winA: { wins: number; n: number; p: number | null; lo: number | null; hi: number | null };
  /** Share of answers that chose the transcript shown first (0.5: no position preference), 95% Wilson. */
  firstWins: PositionBias['firstWins'];
  /** Agreement between annotators on pairs answered by two or more. */
  fleiss: { kappa: number | null; items: number };
  /** With exactly two annotators on common pairs: Cohen's kappa between them. */
  cohen: { kappa: number | null; items: number } | null;
  /** Human majority vs the LLM judge, on pairs both answered (null: no judge verdicts given). */
  judge: { items: number; agreement: number | null; kappa: number | null } | null;
}

/**
 * Win rates, inter-annotator agreement and human–judge agreement of a pairwise naturalness study.
 * Each annotator's latest answer per pair counts once; the human side of the judge comparison is the
 * majority per pair (ties left out).
 */
export function summariseHuman(all: readonly Annotation[], verdicts: readonly JudgeVerdict[] | null): HumanSummary {
  const answers = latestAnswers(all);
  const byPair = new Map<string, Annotation[]>();
  for (const a of answers) byPair.set(a.key, [...(byPair.get(a.key) ?? []), a]);
  const wins = answers.filter((a) => a.winner === 'A').length;
  const annotators = [...new Set(answers.map((a) => a.annotator))];
  const fleiss = fleissKappa([...byPair.values()].map((r) => r.map((a) => a.winner)));
  let cohen: HumanSummary['cohen'] = null;
  if (annotators.length === 2) {
    const common = [...byPair.values()].filter((r) => r.length === 2);
    const [x, y] = annotators as [string, string];
    cohen = {
      kappa: cohenKappa(common.map((r) => r.find((a) => a.annotator === x)!.winner), common.map((r) => r.find((a) => a.annotator === y)!.winner)),
      items: common.length,
    };
  }
  let judge: HumanSummary['judge'] = null;
  if (verdicts) {
    const judged = new Map(verdicts.filter((v) => v.ok && v.winner).map((v) => [v.key, v.winner!]));
    const human: string[] = [];
    const llm: string[] = [];
    for (const [key, rs] of byPair) {
      const j = judged.get(key);
      if (!j) continue;
      const a = rs.filter((r) => r.winner === 'A').length;
      if (a * 2 === rs.length) continue;
      human.push(a * 2 > rs.length ? 'A' : 'B');
      llm.push(j);
    }
    const agree = human.filter((h, i) => h === llm[i]).length;
    judge = { items: human.length, agreement: human.length ? agree / human.length : null, kappa: cohenKappa(human, llm) };
  }
  return {
    runA: answers[0]?.runA ?? '',
    runB: answers[0]?.runB ?? '',
    annotators: annotators.length,
    pairs: byPair.size,
    answers: answers.length,
    winA: { wins, n: answers.length, ...wilson(wins, answers.length) },
    // Each answer is its own presentation (annotators see a pair once, in a salted random order).
    firstWins: positionBiasOfPairs(answers.map((a) => [{ aShownFirst: a.aShownFirst, winner: a.winner }])).firstWins,
    fleiss: { kappa: fleiss.kappa, items: fleiss.items },
    cohen,
    judge,
  };
}

const pct = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);
const num = (v: number | null) => (v === null ? 'undefined' : v.toFixed(2));

/**
 * The summary as lines of text (compare --human, report). Without judge verdicts, the line says how to
 * get them with a command the caller accepts: `compare --human` takes `--verdicts FILE`; `report` only
 * finds them in RUN_A, where `parley compare RUN_A RUN_B --judge SPEC` writes them.
 */
export function humanSummaryLines(s: HumanSummary, caller: 'compare' | 'report' = 'compare'): string[] {
  const lines = [
    `human naturalness study: ${s.answers} answer(s) from ${s.annotators} annotator(s) on ${s.pairs} pair(s)`,
    `  A (${s.runA}) more natural: ${s.winA.wins}/${s.winA.n} = ${pct(s.winA.p)} [95% Wilson ${pct(s.winA.lo)}, ${pct(s.winA.hi)}]`,
    `  B (${s.runB}) more natural: ${s.winA.n - s.winA.wins}/${s.winA.n} = ${pct(s.winA.p === null ? null : 1 - s.winA.p)} [95% Wilson ${pct(s.winA.hi === null ? null : 1 - s.winA.hi)}, ${pct(s.winA.lo === null ? null : 1 - s.winA.lo)}]`,
    `  the transcript shown first chosen: ${s.firstWins.wins}/${s.firstWins.presentations} = ${pct(s.firstWins.p)} [95% Wilson ${pct(s.firstWins.lo)}, ${pct(s.firstWins.hi)}] (50%: no position preference)`,
    `  agreement between annotators: Fleiss' kappa ${num(s.fleiss.kappa)} over ${s.fleiss.items} pair(s) with 2+ answers`,
  ];
  if (s.cohen) lines.push(`  Cohen's kappa (the two annotators): ${num(s.cohen.kappa)} over ${s.cohen.items} common pair(s)`);
  if (s.judge) lines.push(`  humans vs LLM judge: ${pct(s.judge.agreement)} agreement, Cohen's kappa ${num(s.judge.kappa)} over ${s.judge.items} pair(s)`);
  else {
    const make = `parley compare ${s.runA || 'RUN_A'} ${s.runB || 'RUN_B'} --judge SPEC`;
    lines.push(
      caller === 'compare'
        ? `  humans vs LLM judge: no judge verdicts (run ${make} first, or pass --verdicts FILE)`
        : `  humans vs LLM judge: no judge verdicts (run ${make} first; report reads them from ${s.runA || 'RUN_A'})`,
    );
  }
  return lines;
}
