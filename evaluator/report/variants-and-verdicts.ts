/**
 * Two report sections that put judgements side by side: every SOTOPIA-EVAL judge variant stored on the episodes
 * (`parley eval` full-background and `--blind`, other judge models) per mode, and the naturalness
 * verdicts `parley compare` wrote into the run directories.
 */
import { listCompareVerdicts, readCompareVerdicts } from '../../run-dir/index.js';
import path from 'node:path';
import { DIMENSION_NAMES } from '../dimensions.js';
import { judgeVariants, readEvaluation } from '../evaluation.js';
import { isSotopia } from '../rubric/builtin.js';
import type { RunDir } from '../run-dir.js';
import { wilson } from '../stats/wilson.js';
import { positionBias, rateText } from '../compare/position-bias.js';
import { mdCell } from './card.js';

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

/** Mean score per dimension, by mode and judge variant, over scored seats of ok episodes. */
export function judgeVariantsMarkdown(runs: readonly RunDir[]): string[] {
  const cells = new Map<string, { mode: string; variant: string; scores: Map<string, number[]>; errors: number }>();
  for (const run of runs) {
    for (const e of run.episodes) {
      if (e.record.status !== 'ok') continue;
      for (const [variant, j] of judgeVariants(readEvaluation(e.record.evaluation))) {
        // SOTOPIA-EVAL judgements only: other rubrics have their own sections (judge-panels.ts).
        if (!isSotopia(j.judge.rubric)) continue;
        const key = `${e.record.mode}\u0000${variant}`;
        let c = cells.get(key);
        if (!c) cells.set(key, (c = { mode: e.record.mode, variant, scores: new Map(), errors: 0 }));
        for (const s of Object.values(j.seats)) {
          if (!s.ok) {
            c.errors++;
            continue;
          }
          for (const d of DIMENSION_NAMES) if (s.scores[d]) c.scores.set(d, [...(c.scores.get(d) ?? []), s.scores[d].score]);
        }
      }
    }
  }
  const variants = new Set([...cells.values()].map((c) => c.variant));
  if (variants.size < 2) return [];
  const lines = ['## Judge variants side by side', '', 'Every judgement stored on the episodes (a `--blind` judge is added next to the full-background one): mean score per seat, `mean (seats)`.', ''];
  lines.push(`| mode | judge | evaluation errors | ${DIMENSION_NAMES.join(' | ')} |`, `|---|---|---|${DIMENSION_NAMES.map(() => '---').join('|')}|`);
  const order = ['script', 'agents', 'mindreaders'];
  for (const c of [...cells.values()].sort((a, b) => order.indexOf(a.mode) - order.indexOf(b.mode) || a.variant.localeCompare(b.variant))) {
    const row = DIMENSION_NAMES.map((d) => {
      const xs = c.scores.get(d) ?? [];
      const m = mean(xs);
      return m === null ? '—' : `${m.toFixed(2)} (${xs.length})`;
    });
    lines.push(`| ${mdCell(c.mode)} | ${mdCell(c.variant)} | ${c.errors} | ${row.join(' | ')} |`);
  }
  lines.push('');
  return lines;
}

/** The verdict files `parley compare` writes by default: `compare-<mode-a>-vs-<mode-b>.jsonl` in DIR_A. */
export function compareVerdictsMarkdown(runs: readonly RunDir[]): string[] {
  const rows: string[] = [];
  const unreadable: string[] = [];
  for (const run of runs) {
    for (const { file, modeA: a, modeB: b } of listCompareVerdicts(run.dir)) {
      const read = readCompareVerdicts(file);
      const verdicts = read.values as { ok?: boolean; winner?: string; judge?: unknown; question?: unknown; orders?: unknown }[];
      // The one rule of every reader of these files: a bad line is left out and said, never dropped silently.
      if (read.badLines.length) unreadable.push(`\`${mdCell(path.basename(file))}\` (${mdCell(path.basename(path.resolve(run.dir)))}): unreadable line(s) ${read.badLines.map((l) => l.line).join(', ')} left out.`);
      const judged = verdicts.filter((v) => v.ok === true);
      const winsA = judged.filter((v) => v.winner === 'A').length;
      const winsB = judged.filter((v) => v.winner === 'B').length;
      const orders = [...new Set(verdicts.map((v) => (v.orders === 'both' ? 'both' : 'one')))].join(', ');
      const position = positionBias(verdicts);
      const r = wilson(winsA, judged.length);
      const pct = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);
      // Who judged and which question (files written before verdicts recorded it say so by a dash).
      const asked = [...new Set(verdicts.map((v) => (typeof v.judge === 'string' ? `${v.judge}, ${typeof v.question === 'string' ? v.question : '?'} question` : '—')))].sort().join('; ');
      const consistency = position.consistency.pairs ? rateText(position.consistency, position.consistency.pairs) : '— (one order)';
      rows.push(
        `| ${mdCell(path.basename(path.resolve(run.dir)))} | ${mdCell(a)} | ${mdCell(b)} | ${mdCell(asked)} | ${orders} | ${judged.length} | ${winsA} | ${winsB} | ${judged.length - winsA - winsB} | ${pct(r.p)} [${pct(r.lo)}, ${pct(r.hi)}] | ${consistency} | ${rateText(position.firstWins, position.firstWins.presentations)} | ${verdicts.length - judged.length} |`,
      );
    }
  }
  if (!rows.length) return [];
  return [
    '## Naturalness verdicts (parley compare)',
    '',
    "Pairwise judgements of which conversation reads more natural, from each run's `compare-*.jsonl`: A's win rate with its 95% Wilson interval. " +
      'Judged in both orders, a pair is a win only when both answers chose the same conversation, else a tie. ' +
      'Position consistency: the share of pairs judged in both orders whose two answers agree (95% Wilson). ' +
      'First position won: the share of answers that chose the conversation shown first (0.5 = no position preference; 95% Wilson, or a bootstrap over pairs when pairs were asked twice).',
    '',
    '| run (A) | mode A | mode B | judge, question | orders | pairs judged | A more natural | B more natural | ties | A rate [95% CI] | position consistency [95% CI] | first position won [95% CI] | not judged |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    ...(unreadable.length ? [...unreadable, ''] : []),
  ];
}
