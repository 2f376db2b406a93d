import { METRIC_LABELS } from '../aggregate.js';
import { mdCell } from '../report/card.js';
import type { BesideRow } from './beside.js';
import type { PublishedNumbers } from './published.js';

const num = (v: number) => (Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2));
/** The paper's numbers are printed with two decimals (29.83, 0.94), so they are shown with two. */
const paperNum = (v: number) => v.toFixed(2);

/** The report section laying a paper run's numbers beside the paper's published ones. */
export function besideMarkdown(rows: readonly BesideRow[], published: PublishedNumbers): string[] {
  const lines = ['## Beside the paper', ''];
  lines.push(
    `The paper's published numbers (${published.citation} ${published.source}), from \`evaluator/paper/published.json\` (or \`$PARLEY_PAPER_NUMBERS\`). ` +
      "**inside** says whether Parley's mean lands inside the paper's interval; where the paper prints no interval, whether the paper's value lands inside Parley's 95% CI.",
    '',
  );
  lines.push('| metric | mode | models | subset | Parley mean [95% CI] (n) | paper | inside | where |', '|---|---|---|---|---|---|---|---|');
  // A paper entry's note (how its model was attributed, or an inconsistency in the paper) is listed once below the table.
  const notes: string[] = [];
  const noteRef = (note: string | undefined) => {
    if (!note) return '';
    if (!notes.includes(note)) notes.push(note);
    return ` (note ${notes.indexOf(note) + 1})`;
  };
  for (const r of rows) {
    const p = r.parley;
    const parley = p.mean === null ? '—' : `${num(p.mean)}${p.lo !== null && p.hi !== null ? ` [${num(p.lo)}, ${num(p.hi)}]` : ''} (${p.n})`;
    const paper = r.paper
      ? `${paperNum(r.paper.value)}${r.paper.lo !== undefined && r.paper.hi !== undefined ? ` [${paperNum(r.paper.lo)}, ${paperNum(r.paper.hi)}]` : ''}${r.paper.printed ? ` (printed ${mdCell(r.paper.printed)})` : ''}`
      : 'not transcribed';
    const inside = r.verdict ? `${r.verdict.inside ? 'yes' : 'no'} (${r.verdict.against})` : '—';
    lines.push(`| ${METRIC_LABELS[r.metric]} | ${mdCell(r.mode)} | ${mdCell(r.models)} | ${mdCell(r.subset)} | ${parley} | ${paper} | ${inside} | ${mdCell(r.paper?.where ?? '')}${noteRef(r.paper?.note)} |`);
  }
  if (notes.length) lines.push('', ...notes.map((n, i) => `Note ${i + 1}: ${n}`));
  if (!rows.length) lines.push('| — | — | — | — | no episode has a value for these metrics yet (run `parley eval` for the goal score) | | | |');
  if (published.notTranscribed.length) {
    lines.push('', `Not yet in the data file (so shown as "not transcribed"): ${published.notTranscribed.join('; ')}.`);
  }
  lines.push('');
  return lines;
}
