import { esc } from './xml.js';

/**
 * Hand-written SVG charts (no chart library): a grouped bar chart with optional 95% CI whiskers.
 * Output is standalone, well-formed XML usable as a file or inline in HTML.
 */

export interface Bar {
  series: string;
  value: number | null;
  lo?: number | null;
  hi?: number | null;
  /** Shown under the bar as `n=…`. */
  n?: number;
}

export interface BarGroup {
  label: string;
  bars: Bar[];
}

export interface BarChartSpec {
  title: string;
  yLabel: string;
  groups: BarGroup[];
  /** Series in legend order; bars of a group are drawn in this order. */
  series: string[];
  /** Fixed axis range; else from the data (always including 0). */
  yMin?: number;
  yMax?: number;
  /** Value format on the axis and labels. */
  format?: (v: number) => string;
  /** Shown in place of the bars when no bar has a value. */
  emptyNote?: string;
  /** Small print under the chart; default explains bars, whiskers and n. */
  footnote?: string;
}

const PALETTE = ['#d95f02', '#1b9e77', '#7570b3', '#e7298a', '#66a61e', '#e6ab02', '#a6761d', '#666666'];
const MODE_COLORS: Record<string, string> = { script: '#d95f02', agents: '#1b9e77', mindreaders: '#7570b3' };

/** Colour of a series: the mode's colour when the series starts with a mode name, else from the palette. */
export function seriesColor(series: string, index: number): string {
  const mode = Object.keys(MODE_COLORS).find((m) => series === m || series.startsWith(`${m} `));
  return mode ? MODE_COLORS[mode]! : PALETTE[index % PALETTE.length]!;
}

/** More colours for series beyond the first of each mode (two runs of one mode must not look alike). */
const EXTRA = ['#e7298a', '#66a61e', '#e6ab02', '#a6761d', '#1f78b4', '#b15928', '#fb9a99', '#6a3d9a', '#33a02c', '#666666'];

/**
 * A distinct colour per series of one chart: the first series of a mode keeps the mode's colour (so
 * single-run reports read as before), any further series of the same mode gets a colour no other
 * series of the chart uses.
 */
export function seriesColors(series: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const used = new Set<string>();
  const pending: string[] = [];
  for (const s of series) {
    const mode = Object.keys(MODE_COLORS).find((m) => s === m || s.startsWith(`${m} `));
    const c = mode ? MODE_COLORS[mode]! : undefined;
    if (c && !used.has(c)) {
      out.set(s, c);
      used.add(c);
    } else pending.push(s);
  }
  const free = [...PALETTE, ...EXTRA].filter((c, i, all) => all.indexOf(c) === i && !used.has(c));
  pending.forEach((s, i) => {
    // Past the palette, a hue from the golden angle keeps colours apart.
    const c = free[i] ?? `hsl(${Math.round((i * 137.5) % 360)}, 60%, 45%)`;
    out.set(s, c);
    used.add(c);
  });
  return out;
}

/** Round-number ticks covering [lo, hi]. */
export function niceTicks(lo: number, hi: number, count = 5): number[] {
  if (hi <= lo) hi = lo + 1;
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((f) => f * mag).find((s) => s >= raw) ?? 10 * mag;
  const ticks: number[] = [];
  for (let t = Math.ceil(lo / step - 1e-9) * step; t <= hi + 1e-9; t += step) ticks.push(Number(t.toFixed(10)));
  return ticks;
}

const fmtDefault = (v: number) => (Math.abs(v) >= 100 || Number.isInteger(v) ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2));

/** A grouped bar chart as an SVG document. */
export function barChart(spec: BarChartSpec): string {
  const fmt = spec.format ?? fmtDefault;
  const footnote = spec.footnote ?? 'bars: mean; whiskers: 95% bootstrap CI; numbers under bars: n';
  const legendWidth = spec.series.reduce((w, s) => w + 24 + s.length * 6.5, 0);
  const width = Math.ceil(Math.max(480, 120 + spec.groups.length * (spec.series.length * 34 + 36), 80 + footnote.length * 5, 80 + legendWidth));
  const height = 350;
  const m = { left: 64, right: 16, top: 44, bottom: 94 };
  const plotW = width - m.left - m.right;
  const plotH = height - m.top - m.bottom;
  const values = spec.groups.flatMap((g) => g.bars.flatMap((b) => [b.value, b.lo ?? null, b.hi ?? null])).filter((v): v is number => v !== null && Number.isFinite(v));
  let yMin = spec.yMin ?? Math.min(0, ...values);
  let yMax = spec.yMax ?? Math.max(0, ...values);
  if (yMax <= yMin) yMax = yMin + 1;
  const ticks = niceTicks(yMin, yMax);
  if (spec.yMin === undefined) yMin = Math.min(yMin, ticks[0]!);
  if (spec.yMax === undefined) yMax = Math.max(yMax, ticks[ticks.length - 1]!);
  const y = (v: number) => m.top + plotH - ((Math.min(Math.max(v, yMin), yMax) - yMin) / (yMax - yMin)) * plotH;
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`);
  out.push(`<title>${esc(spec.title)}</title>`);
  out.push(`<rect x="0" y="0" width="${width}" height="${height}" fill="#ffffff"/>`);
  out.push(`<text x="${width / 2}" y="18" text-anchor="middle" font-size="14" font-weight="bold">${esc(spec.title)}</text>`);
  for (const t of ticks) {
    if (t < yMin - 1e-9 || t > yMax + 1e-9) continue;
    out.push(`<line x1="${m.left}" y1="${y(t).toFixed(1)}" x2="${width - m.right}" y2="${y(t).toFixed(1)}" stroke="#e0e0e0"/>`);
    out.push(`<text x="${m.left - 6}" y="${(y(t) + 4).toFixed(1)}" text-anchor="end">${esc(fmt(t))}</text>`);
  }
  out.push(`<line x1="${m.left}" y1="${y(Math.max(yMin, Math.min(0, yMax))).toFixed(1)}" x2="${width - m.right}" y2="${y(Math.max(yMin, Math.min(0, yMax))).toFixed(1)}" stroke="#333333"/>`);
  out.push(`<text transform="translate(14 ${m.top + plotH / 2}) rotate(-90)" text-anchor="middle">${esc(spec.yLabel)}</text>`);
  const hasData = values.length > 0;
  if (!hasData) {
    out.push(`<text x="${m.left + plotW / 2}" y="${m.top + plotH / 2}" class="no-data" text-anchor="middle" fill="#888888">${esc(spec.emptyNote ?? 'no data')}</text>`);
  }
  const groupW = plotW / Math.max(1, spec.groups.length);
  const barW = Math.min(30, (groupW - 16) / Math.max(1, spec.series.length));
  const colors = seriesColors(spec.series);
  spec.groups.forEach((g, gi) => {
    const gx = m.left + gi * groupW;
    const start = gx + (groupW - barW * spec.series.length) / 2;
    spec.series.forEach((s, si) => {
      const b = g.bars.find((x) => x.series === s);
      if (!b || b.value === null || !Number.isFinite(b.value)) return;
      const x = start + si * barW;
      const y0 = y(Math.max(yMin, Math.min(0, yMax)));
      const y1 = y(b.value);
      const top = Math.min(y0, y1);
      // A zero is a result, not a missing bar: drawn as a visible sliver with its value written above.
      const zero = b.value === 0;
      const h = zero ? 3 : Math.max(0.5, Math.abs(y1 - y0));
      if (zero) out.push(`<text x="${(x + barW / 2).toFixed(1)}" y="${(top - 4).toFixed(1)}" text-anchor="middle" font-size="9" fill="#444444">0</text>`);
      out.push(`<rect x="${(x + 1).toFixed(1)}" y="${(zero ? top - 3 : top).toFixed(1)}" width="${(barW - 2).toFixed(1)}" height="${h.toFixed(1)}" fill="${colors.get(s)}"${zero ? ' stroke="#444444" stroke-width="0.5"' : ''}><title>${esc(`${g.label} · ${s}: ${fmt(b.value)}${b.lo != null && b.hi != null ? ` [${fmt(b.lo)}, ${fmt(b.hi)}]` : ''}${b.n !== undefined ? ` n=${b.n}` : ''}`)}</title></rect>`);
      if (b.lo != null && b.hi != null) {
        const cx = (x + barW / 2).toFixed(1);
        out.push(`<line x1="${cx}" y1="${y(b.lo).toFixed(1)}" x2="${cx}" y2="${y(b.hi).toFixed(1)}" stroke="#222222"/>`);
        out.push(`<line x1="${(x + barW / 2 - 4).toFixed(1)}" y1="${y(b.lo).toFixed(1)}" x2="${(x + barW / 2 + 4).toFixed(1)}" y2="${y(b.lo).toFixed(1)}" stroke="#222222"/>`);
        out.push(`<line x1="${(x + barW / 2 - 4).toFixed(1)}" y1="${y(b.hi).toFixed(1)}" x2="${(x + barW / 2 + 4).toFixed(1)}" y2="${y(b.hi).toFixed(1)}" stroke="#222222"/>`);
      }
      if (b.n !== undefined) out.push(`<text x="${(x + barW / 2).toFixed(1)}" y="${m.top + plotH + 12}" text-anchor="middle" font-size="9" fill="#666666">${b.n}</text>`);
    });
    out.push(`<text x="${(gx + groupW / 2).toFixed(1)}" y="${m.top + plotH + 26}" text-anchor="middle">${esc(g.label)}</text>`);
  });
  let lx = m.left;
  const ly = height - 32;
  spec.series.forEach((s, si) => {
    out.push(`<rect x="${lx}" y="${ly - 9}" width="10" height="10" fill="${colors.get(s)}"/>`);
    out.push(`<text x="${lx + 14}" y="${ly}">${esc(s)}</text>`);
    lx += 24 + s.length * 6.5;
  });
  if (hasData) out.push(`<text x="${m.left}" y="${height - 10}" font-size="9" fill="#666666">${esc(footnote)}</text>`);
  out.push('</svg>');
  return out.join('\n');
}
