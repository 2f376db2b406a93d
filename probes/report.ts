import { barChart, type BarGroup } from '../evaluator/report/svg.js';
import { mdText } from '../evaluator/report/markdown-text.js';
import { accuracyCells, lastTurnCells, valueLabel, type AccuracyCell } from './accuracy.js';
import type { ProbeRecord } from './probe-record.js';

/** A probe's section of the report: its chart (accuracy against turn, one series per arm) and its table. */
export interface ProbeSection {
  probe: string;
  /** File name of the chart, `probe-<name>.svg`. */
  chartFile: string;
  svg: string;
  markdown: string;
}

const fmt = (v: number | null, digits = 2) => (v === null ? '—' : v.toFixed(digits));
const interval = (c: AccuracyCell) => (c.lo === null || c.hi === null ? '' : ` [${fmt(c.lo)}, ${fmt(c.hi)}]`);

/** A file-name-safe form of a probe name (probe names come from a probe file: untrusted). */
const slug = (name: string) => name.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 60) || 'probe';

/** One section per probe in the records: a grouped chart of turns × arms with 95% intervals, and the numbers. */
export function probeSections(records: readonly ProbeRecord[], seed = 1): ProbeSection[] {
  const cells = accuracyCells(records, seed);
  const sections: ProbeSection[] = [];
  for (const probe of [...new Set(cells.map((c) => c.probe))]) {
    const mine = cells.filter((c) => c.probe === probe);
    const scorer = mine[0]!.scorer;
    const arms = [...new Set(mine.map((c) => c.arm))];
    const turns = [...new Set(mine.map((c) => c.turn))].sort((a, b) => a - b);
    const groups: BarGroup[] = turns.map((turn) => ({
      label: `turn ${turn}`,
      bars: arms.map((arm) => {
        const c = mine.find((x) => x.arm === arm && x.turn === turn);
        return { series: arm, value: c?.value ?? null, lo: c?.lo ?? null, hi: c?.hi ?? null, n: c?.n ?? 0 };
      }),
    }));
    const proportion = scorer === 'exact' || scorer === 'yesno';
    const svg = barChart({
      title: `Probe ${probe}: ${valueLabel(scorer)} by turn`,
      yLabel: valueLabel(scorer),
      groups,
      series: arms,
      ...(proportion ? { yMin: 0, yMax: 1 } : scorer === 'judge' ? { yMin: 0, yMax: 10 } : {}),
      footnote: proportion ? 'bars: share; whiskers: 95% Wilson interval; numbers under bars: n' : 'bars: mean; whiskers: 95% bootstrap CI; numbers under bars: n',
      emptyNote: 'no scored answer',
    });
    const lines = [
      `## Probe ${mdText(probe)}: ${valueLabel(scorer)} against turn`,
      '',
      `![${mdText(probe)}](${slug(probe)}.svg)`,
      '',
      `| arm | turn | n | ${valueLabel(scorer)} [95% interval] | not scored |`,
      '|---|---:|---:|---|---:|',
      ...mine.map((c) => `| ${mdText(c.arm)} | ${c.turn} | ${c.n} | ${fmt(c.value)}${interval(c)} | ${c.unscored} |`),
      ...lastTurnCells(records.filter((r) => r.probe === probe), seed).map((c) => `| ${mdText(c.arm)} | each episode's last | ${c.n} | ${fmt(c.value)}${interval(c)} | ${c.unscored} |`),
      '',
    ];
    sections.push({ probe, chartFile: `${slug(probe)}.svg`, svg, markdown: lines.join('\n') });
  }
  return sections;
}
