import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../disk/atomic-write.js';
import { BOOTSTRAP_RESAMPLES } from '../stats/summary.js';
import { EXACT_LIMIT, PERMUTATIONS } from '../stats/paired.js';
import { citeFooter } from '../report/cite.js';
import { reportCsp } from '../report/csp.js';
import { markdownToHtml } from '../report/markdown-html.js';
import { mdText } from '../report/markdown-text.js';
import { barChart } from '../report/svg.js';
import { esc, xmlWellFormedError } from '../report/xml.js';
import type { Chart } from '../report/charts.js';
import type { PairedComparison, PairedRow } from './paired-runs.js';

/**
 * The paired comparison's one report: report.md and report.html (chart inline) and charts/*.svg in one
 * folder. Differences read A − B: a positive difference means A scored higher.
 */
const CSS = `body{font-family:sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;font-size:12px;margin:1em 0}th,td{border:1px solid #ccc;padding:3px 6px;text-align:left}
th{background:#f3f3f3}figure{margin:1em 0}figcaption{font-size:12px;color:#555}code{background:#f5f5f5;padding:0 3px}`;

const f2 = (v: number | null) => (v === null ? '—' : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2));
const fmtP = (p: number | null) => (p === null ? '—' : p < 0.001 ? '<0.001' : p.toFixed(3));

/** `+0.40 [0.10, 0.70]`: the difference with its interval (none with one pair). */
function diffText(r: PairedRow): string {
  const d = r.diff;
  const sign = (v: number) => (v > 0 ? `+${f2(v)}` : f2(v));
  return d.mean === null ? '—' : d.lo !== null && d.hi !== null ? `${sign(d.mean)} [${f2(d.lo)}, ${f2(d.hi)}]` : sign(d.mean);
}

/** One sentence for the reader: which run is higher, by how much, and whether the interval excludes 0. */
function verdict(r: PairedRow, a: string, b: string): string {
  const d = r.diff;
  if (d.mean === null) return '';
  if (d.mean === 0) return `${a} and ${b} do not differ`;
  const higher = d.mean > 0 ? a : b;
  const lower = d.mean > 0 ? b : a;
  const clear = d.lo !== null && d.hi !== null && (d.lo > 0 || d.hi < 0);
  return `${higher} above ${lower} by ${f2(Math.abs(d.mean))}${clear ? '' : ' (the interval includes 0)'}`;
}

const UNIT_WORDS: Record<PairedComparison['by'], string> = {
  episode: 'episodes matched by scenario, character pair, mode and repeat',
  scenario: "scenarios matched by scenario and mode, each run's episodes of a scenario averaged first",
  seat: 'seats of episodes matched by scenario, character pair, mode, repeat and seat',
};

/** The chart: per measure of the judge (and goal first), A − B per mode with its interval. */
export function pairedChart(c: PairedComparison): Chart | null {
  const judged = c.rows.filter((r) => r.measure.key === 'goal' || !['success', 'turns', 'wordsPerTurn', 'repetition', 'nonverbalShare', 'firstMention', 'mentioned', 'deal', 'sellerUtility'].includes(r.measure.key));
  const rows = judged.length ? judged : c.rows;
  if (!rows.some((r) => r.diff.mean !== null)) return null;
  const measures = [...new Map(rows.map((r) => [r.measure.key, r.measure])).values()];
  const series = [...new Set(rows.map((r) => r.mode))];
  const groups = measures.map((m) => ({
    label: m.label,
    bars: series.map((mode) => {
      const r = rows.find((x) => x.measure.key === m.key && x.mode === mode);
      return { series: mode, value: r?.diff.mean ?? null, lo: r?.diff.lo ?? null, hi: r?.diff.hi ?? null, n: r?.diff.n ?? 0 };
    }),
  }));
  const title = `${c.nameA} − ${c.nameB}, paired by ${c.by}`;
  return {
    file: 'paired-differences.svg',
    title,
    caption: `Paired difference ${c.nameA} − ${c.nameB} per ${judged.length ? 'judge dimension' : 'measure'} and mode (above 0: ${c.nameA} higher), with its 95% bootstrap CI.`,
    svg: barChart({ title, yLabel: `${c.nameA} − ${c.nameB}`, groups, series, footnote: 'bars: mean paired difference; whiskers: 95% bootstrap CI over pairs; numbers under bars: pairs' }),
  };
}

/** The report's Markdown. */
export function pairedMarkdown(c: PairedComparison, chart: Chart | null, title: string): string {
  const [a, b] = [mdText(c.nameA), mdText(c.nameB)];
  const lines = [`# ${mdText(title)}`, ''];
  const matched = Object.entries(c.matched).map(([m, n]) => `${mdText(m)} ${n}`).join(', ') || 'none';
  lines.push(
    `Paired comparison of run **${a}** (A) with run **${b}** (B): ${UNIT_WORDS[c.by]}. Pairs per mode: ${matched}; left without a partner: ${c.unmatchedA} in A, ${c.unmatchedB} in B (failed episodes are never paired).`,
    '',
    `Each cell is the mean over pairs where both runs have a value. **A − B** is the mean paired difference (above 0: A higher) with its 95% percentile-bootstrap CI over pairs (${BOOTSTRAP_RESAMPLES} resamples, seeded); **p** is the two-sided paired permutation (sign-flip) test, exact up to ${EXACT_LIMIT} pairs, else ${PERMUTATIONS.toLocaleString('en-US')} seeded random flips. Definitions: docs/metrics.md.`,
    '',
  );
  if (!c.rows.length) {
    lines.push('No pairs: the two runs share no scenario (and mode) with a value in both. Run both over the same scenarios, and `parley eval` both with the same judge for judge scores.', '');
  } else {
    lines.push('## Paired differences', '', `| mode | measure | pairs | A: ${a} | B: ${b} | A − B [95% CI] | p | reading |`, '|---|---|---|---|---|---|---|---|');
    for (const r of c.rows) lines.push(`| ${mdText(r.mode)} | ${mdText(r.measure.label)} | ${r.diff.n} | ${f2(r.meanA)} | ${f2(r.meanB)} | ${diffText(r)} | ${fmtP(r.diff.p)} | ${mdText(verdict(r, c.nameA, c.nameB))} |`);
    lines.push('');
  }
  if (chart) lines.push('## Chart', '', mdText(chart.caption), '', `![${mdText(chart.title)}](charts/${chart.file})`, '');
  lines.push(...citeFooter());
  return lines.join('\n');
}

/** Writes report.md, report.html and the chart into `outDir`. */
export async function writePairedReport(c: PairedComparison, outDir: string, title?: string): Promise<{ markdownFile: string; htmlFile: string; chartFiles: string[] }> {
  const chart = pairedChart(c);
  if (chart) {
    const err = xmlWellFormedError(chart.svg);
    if (err) throw new Error(`chart ${chart.file} is not well-formed XML: ${err}`);
  }
  const heading = title ?? `Parley paired report: ${c.nameA} against ${c.nameB}`;
  const markdown = pairedMarkdown(c, chart, heading);
  const inline = new Map(chart ? [[`charts/${chart.file}`, chart.svg]] : []);
  const html = `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"/>${reportCsp()}<title>${esc(heading)}</title><style>${CSS}</style></head><body>\n${markdownToHtml(markdown, inline)}\n</body></html>\n`;
  await mkdir(outDir, { recursive: true });
  const chartFiles: string[] = [];
  if (chart) {
    const file = path.join(outDir, 'charts', chart.file);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFileAtomic(file, `<?xml version="1.0" encoding="UTF-8"?>\n${chart.svg}\n`);
    chartFiles.push(file);
  }
  const markdownFile = path.join(outDir, 'report.md');
  const htmlFile = path.join(outDir, 'report.html');
  await writeFileAtomic(markdownFile, markdown);
  await writeFileAtomic(htmlFile, html);
  return { markdownFile, htmlFile, chartFiles };
}
