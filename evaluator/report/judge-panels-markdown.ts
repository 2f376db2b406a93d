import { terminalSafe } from '../../text/terminal.js';
import type { Panel } from './judge-panels.js';
import { mdCell } from './card.js';
import { mdText } from './markdown-text.js';

const f2 = (v: number | null) => (v === null ? '—' : v.toFixed(2));
const alphaText = (a: Panel['agreement'][number]['alpha']) =>
  a.alpha === null ? '— (undefined: no variation)' : `${a.alpha.toFixed(3)}${a.lo !== null && a.hi !== null ? ` [${a.lo.toFixed(2)}, ${a.hi.toFixed(2)}]` : ''}`;

/**
 * Panels worth a section: two or more judges that scored the same seats, or a judge scoring its own
 * model's episodes. Judges that never scored a seat in common (a combined report of runs judged by
 * different models) are no panel: there is no agreement to state.
 */
function shown(panels: readonly Panel[]): Panel[] {
  return panels.filter((p) => p.agreement.length > 0 || p.judges.some((j) => j.selfEvaluated > 0));
}

/** The report's section: per rubric, each judge's provenance and means, the panel mean, and agreement per dimension. */
export function judgePanelsMarkdown(panels: readonly Panel[]): string[] {
  const list = shown(panels);
  if (!list.length) return [];
  const lines = [
    '## Judge panels and agreement',
    '',
    "Judges that scored the same episodes on the same rubric, side by side; a rubric (by name and hash) is never averaged with another. Means are per scored seat. Agreement per dimension: Krippendorff's alpha (interval metric) over seats, with a 95% percentile bootstrap interval (seats resampled, seeded), and the mean absolute difference between two judges' scores of a seat. **self-evaluation** counts the episodes a judge scored whose dialogue its own model generated.",
    '',
  ];
  for (const p of list) {
    const dims = p.rubric.dimensions;
    lines.push(`### Rubric ${mdText(p.rubric.name)} (${mdText(p.visibility)}, ${mdText(p.view)} view)`, '');
    lines.push(`| judge | provider | model | prompt version | rubric hash | seats scored | evaluation errors | self-evaluation | ${dims.map((d) => mdCell(d.label ?? d.name)).join(' | ')} |`);
    lines.push(`|---|---|---|---|---|---|---|---|${dims.map(() => '---').join('|')}|`);
    for (const j of p.judges) {
      const self = j.selfEvaluated ? `**yes: ${j.selfEvaluated} of ${j.episodes} episodes**` : 'no';
      lines.push(
        `| ${mdCell(j.info.spec)} | ${mdCell(j.info.provider ?? '—')} | ${mdCell(j.info.model ?? '—')} | ${mdCell(j.info.promptVersion)} | ${mdCell((j.info.rubric?.hash ?? p.rubric.hash).slice(0, 12))} | ${j.seatsScored} | ${j.errors} | ${self} | ${dims.map((d) => f2(j.means[d.name] ?? null)).join(' | ')} |`,
      );
    }
    if (p.agreement.length) lines.push(`| panel mean | | | | | | | | ${dims.map((d) => f2(p.panelMeans[d.name] ?? null)).join(' | ')} |`);
    lines.push('');
    if (p.agreement.length) {
      lines.push('| dimension | seats (two or more judges) | Krippendorff\'s alpha (interval) [95% CI] | mean absolute difference |', '|---|---|---|---|');
      for (const a of p.agreement) lines.push(`| ${mdCell(a.dimension)} | ${a.alpha.units} | ${alphaText(a.alpha)} | ${f2(a.mad)} |`);
      lines.push('');
    }
  }
  return lines;
}

/** What `parley report` prints of the panels: per rubric, alpha and the mean absolute difference per dimension, and self-evaluation. */
export function judgePanelLines(panels: readonly Panel[]): string[] {
  const lines: string[] = [];
  for (const p of shown(panels)) {
    lines.push(`judges on rubric ${terminalSafe(p.rubric.name)} (${p.visibility}, ${p.view} view): ${p.judges.map((j) => terminalSafe(j.info.spec)).join(', ')}`);
    for (const a of p.agreement) {
      lines.push(`  ${terminalSafe(a.dimension)}: Krippendorff's alpha ${alphaText(a.alpha)}, mean absolute difference ${f2(a.mad)} (${a.alpha.units} seats)`);
    }
    for (const j of p.judges) if (j.selfEvaluated) lines.push(`  self-evaluation: ${terminalSafe(j.info.spec)} scored ${j.selfEvaluated} of ${j.episodes} episodes its own model generated`);
  }
  return lines;
}
