/**
 * Two report sections that put judgements side by side: every SOTOPIA-EVAL judge variant stored on the episodes
 * (`parley eval` full-background and `--blind`, other judge models) per mode, and the naturalness
 * verdicts `parley compare` wrote into the run directories.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DIMENSION_NAMES } from '../dimensions.js';
import { judgeVariants, readEvaluation } from '../evaluation.js';
import { isSotopia } from '../rubric/builtin.js';
import type { RunDir } from '../run-dir.js';
import { wilson } from '../stats/wilson.js';
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
  for (const run of runs) {
    if (!existsSync(run.dir)) continue;
    for (const file of readdirSync(run.dir).filter((f) => /^compare-.*\.jsonl$/.test(f)).sort()) {
      const verdicts = readFileSync(path.join(run.dir, file), 'utf8').split('\n').filter((l) => l.trim()).flatMap((l) => {
        try {
          return [JSON.parse(l) as { ok?: boolean; winner?: string; judge?: unknown; question?: unknown }];
        } catch {
          return [];
        }
      });
      const judged = verdicts.filter((v) => v.ok === true);
      const winsA = judged.filter((v) => v.winner === 'A').length;
      const r = wilson(winsA, judged.length);
      const pct = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);
      const [, a, b] = /^compare-(.+)-vs-(.+)\.jsonl$/.exec(file) ?? [];
      // Who judged and which question (files written before verdicts recorded it say so by a dash).
      const asked = [...new Set(verdicts.map((v) => (typeof v.judge === 'string' ? `${v.judge}, ${typeof v.question === 'string' ? v.question : '?'} question` : '—')))].sort().join('; ');
      rows.push(`| ${mdCell(path.basename(path.resolve(run.dir)))} | ${mdCell(a ?? '?')} | ${mdCell(b ?? '?')} | ${mdCell(asked)} | ${judged.length} | ${winsA} | ${pct(r.p)} [${pct(r.lo)}, ${pct(r.hi)}] | ${verdicts.length - judged.length} |`);
    }
  }
  if (!rows.length) return [];
  return [
    '## Naturalness verdicts (parley compare)',
    '',
    "Pairwise judgements of which conversation reads more natural, from each run's `compare-*.jsonl`: A's win rate with its 95% Wilson interval.",
    '',
    '| run (A) | mode A | mode B | judge, question | pairs judged | A more natural | rate [95% CI] | not judged |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
  ];
}
