import { judgeVariants, readEvaluation, type EpisodeJudgement, type Evaluation, type SeatScores } from './evaluation.js';
import { SOTOPIA_RUBRIC } from './rubric/builtin.js';

/** One seat's scores by dimension name, or its evaluation error's code (the shape training/ selects on). */
export type SelectionSeatScores = { ok: true; scores: Record<string, number> } | { ok: false; code: string };

/**
 * The scores the fine-tuning selection (`--min DIM=X`, `--top-per-scenario --by DIM`) reads, per seat, or
 * null when the episode was not evaluated. Each dimension comes from the main judgement when it scored
 * it, else from the first other full-background judgement that did — so `--min warmth=3` finds a rubric
 * file's dimension next to SOTOPIA-EVAL's. A dimension's value is always one judgement's, never a mix.
 */
export function selectionScores(evaluation: Evaluation | undefined): Record<string, SelectionSeatScores> | null {
  const ev = readEvaluation(evaluation);
  const main = ev?.judge;
  if (!main) return null;
  const others = [...judgeVariants(ev).values()].filter((j) => j !== main && j.judge.visibility === 'full');
  return perSeat(main, (seat, own) => {
    const scores: Record<string, number> = {};
    for (const o of others) {
      const s = o.seats[seat];
      if (s?.ok) for (const [d, x] of Object.entries(s.scores)) if (!(d in scores)) scores[d] = x.score;
    }
    for (const [d, x] of Object.entries(own)) scores[d] = x.score;
    return scores;
  });
}

/**
 * The scores `parley pairs` ranks siblings by, per seat: for each dimension, the mean over the panel that
 * scored it — the full-background judgements in the main judgement's view that used one rubric (each judge
 * of a panel is its own variant on the record; a lone judge's mean is its score). A dimension comes from the
 * main judgement's rubric when it has it, else from the first other rubric that does, never from a mix of
 * rubrics (their ranges may differ). A seat the main judgement failed on has its code.
 */
export function panelMeanScores(evaluation: Evaluation | undefined): Record<string, SelectionSeatScores> | null {
  const ev = readEvaluation(evaluation);
  const main = ev?.judge;
  if (!main) return null;
  const rubricOf = (j: EpisodeJudgement) => j.judge.rubric?.hash ?? SOTOPIA_RUBRIC.hash;
  const panels = new Map<string, EpisodeJudgement[]>([[rubricOf(main), []]]);
  for (const j of judgeVariants(ev).values()) {
    if (j.judge.visibility !== 'full' || (j.judge.view ?? 'parley') !== (main.judge.view ?? 'parley')) continue;
    (panels.get(rubricOf(j)) ?? panels.set(rubricOf(j), []).get(rubricOf(j))!).push(j);
  }
  return perSeat(main, (seat) => {
    const scores: Record<string, number> = {};
    for (const panel of panels.values()) {
      const sums = new Map<string, { total: number; n: number }>();
      for (const judgement of panel) {
        const s = judgement.seats[seat];
        if (!s?.ok) continue;
        for (const [d, x] of Object.entries(s.scores)) {
          const acc = sums.get(d) ?? { total: 0, n: 0 };
          sums.set(d, { total: acc.total + x.score, n: acc.n + 1 });
        }
      }
      for (const [d, { total, n }] of sums) if (!(d in scores)) scores[d] = total / n;
    }
    return scores;
  });
}

/**
 * Both readings' frame: per seat of the main judgement, `score(seat)` where it scored the seat, else the
 * code of its failure (a seat the main judge failed on is never ranked by other judgements' scores).
 */
function perSeat(main: EpisodeJudgement, score: (seat: string, own: SeatScores) => Record<string, number>): Record<string, SelectionSeatScores> {
  const out: Record<string, SelectionSeatScores> = {};
  for (const [seat, j] of Object.entries(main.seats)) out[seat] = j.ok ? { ok: true, scores: score(seat, j.scores) } : { ok: false, code: j.error.code };
  return out;
}
