import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../disk/atomic-write.js';
import { reportCsp } from '../../evaluator/report/csp.js';
import { markdownToHtml } from '../../evaluator/report/markdown-html.js';
import { mdText } from '../../evaluator/report/markdown-text.js';
import { esc, xmlWellFormedError } from '../../evaluator/report/xml.js';
import { niceTicks } from '../../evaluator/report/svg.js';
import type { CurveSummary, Effect } from './effect.js';
import type { AxisSwing } from './swing.js';

export interface CurveRow {
  index: number;
  choices: Record<string, unknown>;
  effect: Effect;
}

const pct = (x: number) => `${Math.round(x * 100)}%`;
const num = (x: number | null) => (x === null ? '–' : x.toFixed(3));
const choiceText = (c: Record<string, unknown>) => Object.entries(c).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`).join(', ');

/** The specification curve: effects sorted, each with its interval, a 0 line, and an indicator panel of choices. */
export function curveSvg(rows: readonly CurveRow[], metric: string): string {
  const sorted = [...rows].sort((x, y) => (x.effect.effect ?? Infinity) - (y.effect.effect ?? Infinity));
  const axes = [...new Set(rows.flatMap((r) => Object.keys(r.choices)))];
  const levels = axes.flatMap((a) => [...new Set(rows.map((r) => JSON.stringify(r.choices[a])))].map((v) => ({ axis: a, value: v })));
  const W = 640, left = 150, top = 20, plotH = 200, rowH = 14;
  const panelTop = top + plotH + 30;
  const H = panelTop + levels.length * rowH + 20;
  const vals = sorted.flatMap((r) => [r.effect.lo, r.effect.hi, r.effect.effect]).filter((v): v is number => v !== null);
  const lo = Math.min(0, ...vals), hi = Math.max(0, ...vals);
  const ticks = niceTicks(lo, hi === lo ? lo + 1 : hi);
  const y0 = ticks[0]!, y1 = ticks[ticks.length - 1]!;
  const y = (v: number) => top + plotH - ((v - y0) / (y1 - y0 || 1)) * plotH;
  const step = (W - left - 10) / Math.max(1, sorted.length);
  const x = (i: number) => left + step * (i + 0.5);
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(`specification curve of ${metric}`)}">`);
  parts.push(`<text x="4" y="14" font-size="11" font-family="sans-serif">${esc(`effect on ${metric} (a − b), sorted`)}</text>`);
  for (const t of ticks) parts.push(`<line x1="${left}" x2="${W - 10}" y1="${y(t)}" y2="${y(t)}" stroke="${t === 0 ? '#333' : '#ddd'}"/><text x="${left - 4}" y="${y(t) + 3}" font-size="10" text-anchor="end" font-family="sans-serif">${esc(String(t))}</text>`);
  sorted.forEach((r, i) => {
    const e = r.effect;
    if (e.lo !== null && e.hi !== null) parts.push(`<line x1="${x(i)}" x2="${x(i)}" y1="${y(e.lo)}" y2="${y(e.hi)}" stroke="#888"/>`);
    if (e.effect !== null) parts.push(`<circle cx="${x(i)}" cy="${y(e.effect)}" r="3" fill="#1f77b4"><title>${esc(`specification ${r.index}: ${choiceText(r.choices)}: ${num(e.effect)}`)}</title></circle>`);
  });
  levels.forEach((l, j) => {
    const ly = panelTop + j * rowH;
    parts.push(`<text x="${left - 4}" y="${ly + 4}" font-size="10" text-anchor="end" font-family="sans-serif">${esc(`${l.axis} = ${JSON.parse(l.value) as string}`)}</text>`);
    sorted.forEach((r, i) => {
      if (JSON.stringify(r.choices[l.axis]) === l.value) parts.push(`<rect x="${x(i) - 3}" y="${ly - 3}" width="6" height="6" fill="#333"/>`);
    });
  });
  parts.push('</svg>');
  return parts.join('\n');
}

/** The per-axis table: each value's median effect, and the swing between them. */
function swingMarkdown(swings: readonly AxisSwing[]): string[] {
  const lines = ['## How far each axis moves the effect', '', 'Per axis, the median effect of the specifications choosing each value; the swing is the largest median minus the smallest.', ''];
  lines.push('| axis | median effect per value (specifications) | swing |', '|---|---|---|');
  for (const a of swings) {
    const values = a.values.map((v) => `${typeof v.value === 'string' ? v.value : JSON.stringify(v.value)}: ${num(v.median)} (${v.specifications})`).join('; ');
    lines.push(`| ${mdText(a.axis)} | ${mdText(values)} | ${num(a.swing)} |`);
  }
  lines.push('');
  return lines;
}

export function curveMarkdown(name: string, claimText: string, rows: readonly CurveRow[], s: CurveSummary, chartFile: string, swings: readonly AxisSwing[] = []): string {
  const lines = [`# Multiverse: ${mdText(name)}`, '', `Claim: ${mdText(claimText)}`, ''];
  lines.push(`**Verdict: ${s.verdict}** (${mdText(s.thresholds)})`, '');
  lines.push(`The claim holds in sign in ${pct(s.holdShare)} of ${s.specifications} specifications; its 95% interval excludes 0 in ${pct(s.significantShare)}. Median effect: ${num(s.median)}.`, '');
  lines.push('## Specification curve', '', `![specification curve](${chartFile})`, '');
  lines.push('| spec | choices | pairs | effect | 95% CI |', '|---|---|---|---|---|');
  for (const r of rows) lines.push(`| ${r.index} | ${mdText(choiceText(r.choices))} | ${r.effect.pairs} | ${num(r.effect.effect)} | ${r.effect.lo === null ? '–' : `${num(r.effect.lo)} … ${num(r.effect.hi)}`} |`);
  lines.push('');
  if (swings.length) lines.push(...swingMarkdown(swings));
  return lines.join('\n');
}

/** Writes report.md, report.html and charts/curve.svg into `dir`. */
export async function writeCurveReport(dir: string, name: string, claimText: string, rows: readonly CurveRow[], s: CurveSummary, metric: string, swings: readonly AxisSwing[] = []): Promise<void> {
  const svg = curveSvg(rows, metric);
  const err = xmlWellFormedError(svg);
  if (err) throw new Error(`specification curve is not well-formed XML: ${err}`);
  const chartFile = 'charts/curve.svg';
  const md = curveMarkdown(name, claimText, rows, s, chartFile, swings);
  const html = `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"/>${reportCsp()}<title>${esc(`Multiverse: ${name}`)}</title></head><body>\n${markdownToHtml(md, new Map([[chartFile, svg]]))}\n</body></html>\n`;
  await mkdir(path.join(dir, 'charts'), { recursive: true });
  await writeFileAtomic(path.join(dir, chartFile), `<?xml version="1.0" encoding="UTF-8"?>\n${svg}\n`);
  await writeFileAtomic(path.join(dir, 'report.md'), md);
  await writeFileAtomic(path.join(dir, 'report.html'), html);
}
