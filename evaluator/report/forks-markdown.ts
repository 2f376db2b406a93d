import type { Summary } from '../stats/summary.js';
import type { Chart } from './charts.js';
import type { ForkCell, ForkComparison } from './forks.js';
import { mdCell } from './card.js';
import { mdText } from './markdown-text.js';
import { barChart } from './svg.js';

const f2 = (v: number) => (Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2));
const signed = (v: number) => `${v > 0 ? '+' : ''}${f2(v)}`;

function fmt(s: Summary | null, sign = false): string {
  if (!s || s.mean === null) return '—';
  const v = sign ? signed : f2;
  return s.lo !== null && s.hi !== null ? `${v(s.mean)} [${v(s.lo)}, ${v(s.hi)}] (${s.n})` : `${v(s.mean)} (${s.n})`;
}

/** Said when the forks were judged and the parent episode was not. */
export const PARENT_NEEDS_EVAL = (parentRun: string) =>
  `The parent episode of run ${parentRun} has no judge scores, so the judge's parent and effect cells are —: run parley eval on the parent run with the forks' judge, then report again.`;

/** One cell as text: forks, the parent, and the effect. */
export function forkCellText(c: ForkCell): string {
  return `forks ${fmt(c.forks)} · parent ${c.parent === null ? '—' : f2(c.parent)} · effect ${fmt(c.effect, true)}`;
}

/** The report section: one row per fork turn and metric. */
export function forksMarkdown(c: ForkComparison): string[] {
  const lines = ['## Forks beside the parent', ''];
  lines.push(
    `Forks of episode \`${mdText(c.parentEpisode)}\` of run \`${mdText(c.parentRun)}\` (parley fork): each replays the parent's turns before the fork turn t exactly, then plays on under the fork's settings. ` +
      "From t on, the parent's own continuation is the parent episode itself, one observation (hence no interval). " +
      'forks: `mean [95% CI] (n)`, percentile bootstrap over the forks at t (failed forks excluded, counted in **failed**); effect: forks − parent, with the same interval shifted. ' +
      'A fork with no change (`parley fork R EP --at t --repeats K`) measures how much a continuation varies by itself.',
    '',
  );
  lines.push(`Changes from the parent: ${c.changes.length ? c.changes.map((x) => mdText(x)).join('; ') : 'none (a control: the parent\'s own settings)'}.`, '');
  if (c.parentStatus === 'failed') lines.push("The parent episode failed: it has no outcome to compare with (parent and effect are —).", '');
  if (c.parentNeedsEval) lines.push(`${PARENT_NEEDS_EVAL(mdText(c.parentRun))}`, '');
  lines.push('| fork turn | episodes | failed | metric | forks | parent | effect |', '|---|---|---|---|---|---|---|');
  for (const r of c.rows) {
    for (const m of c.metrics) {
      const cell = r.cells[m.key]!;
      lines.push(`| ${r.at} | ${r.episodes} | ${r.failed} | ${mdCell(m.label)} | ${fmt(cell.forks)} | ${cell.parent === null ? '—' : f2(cell.parent)} | ${fmt(cell.effect, true)} |`);
    }
  }
  lines.push('');
  return lines;
}

/** One line per fork turn for the terminal: the headline metrics (task success, moves, goal when judged). */
export function forksSummaryLines(c: ForkComparison): string[] {
  const headline = c.metrics.filter((m) => ['success', 'turns', 'goal'].includes(m.key));
  return c.rows.map((r) => `fork turn ${r.at} (${r.episodes} fork(s)${r.failed ? `, ${r.failed} failed` : ''}): ${headline.map((m) => `${m.label}: ${forkCellText(r.cells[m.key]!)}`).join('; ')}`);
}

/** Charts of the effect against the fork turn: one per metric with a value (success, moves, goal, …). */
export function forkCharts(c: ForkComparison): Chart[] {
  const charts: Chart[] = [];
  for (const m of c.metrics.filter((x) => ['success', 'turns', 'goal'].includes(x.key) || x.key.startsWith('goal:'))) {
    const groups = c.rows.map((r) => {
      const e = r.cells[m.key]!.effect;
      return { label: `t=${r.at}`, bars: [{ series: 'forks − parent', value: e?.mean ?? null, lo: e?.lo ?? null, hi: e?.hi ?? null, n: e?.n ?? 0 }] };
    });
    if (!groups.some((g) => g.bars[0]!.value !== null)) continue;
    const title = `Fork effect on ${m.label} by fork turn`;
    charts.push({
      file: `fork-effect-${m.key.replace(/[^A-Za-z0-9_-]+/g, '-')}.svg`,
      title,
      caption: `${m.label}: mean of the forks at fork turn t minus the parent episode's own value, with the forks' 95% bootstrap CI (numbers under bars: forks).`,
      svg: barChart({ title, yLabel: `${m.label}: forks − parent`, groups, series: ['forks − parent'], emptyNote: 'no value', footnote: 'bars: forks − parent; whiskers: 95% bootstrap CI over the forks; numbers under bars: n' }),
    });
  }
  return charts;
}
