import type { GroupRow } from '../aggregate.js';
import type { RunDir } from '../run-dir.js';
import type { Summary } from '../stats/summary.js';
import { PAPER_METRICS, type PaperMetric, type PublishedNumber, type PublishedNumbers } from './published.js';

/** One line of the comparison: Parley's group and the paper's number for it, if the paper has one. */
export interface BesideRow {
  metric: PaperMetric;
  mode: string;
  models: string;
  subset: string;
  parley: Summary;
  paper: PublishedNumber | null;
  /**
   * `inside`: Parley's mean lies in the paper's interval; `outside`: it does not. Without a published
   * interval: whether the paper's value lies in Parley's 95% CI. null when either side is missing.
   */
  verdict: { inside: boolean; against: 'paper interval' | 'parley interval' } | null;
}

/** The subsets the paper reports on (it has no "hard" subset). */
const PAPER_SUBSETS = new Set(['all', 'mutual_friends', 'craigslist_bargains']);

/** Whether a row's model label names a fine-tuned model (OpenAI's `ft:` prefix). */
export function isFinetunedLabel(models: string): boolean {
  // Non-ASCII as \u escapes: the CLI bundle stays ASCII, read as a one-byte string (test/cli-bundle.test.ts).
  return /(^|[\s:\u00d7])ft:/.test(models);
}

/**
 * The paper's number for a Parley row: same metric, mode and subset, the paper's model named in the row's
 * label (case-insensitive), fine-tuned only against fine-tuned labels, and never the paper's names-only
 * characters (Parley runs use the full profiles).
 */
export function paperNumberFor(published: PublishedNumbers, metric: PaperMetric, row: Pick<GroupRow, 'mode' | 'models' | 'subset'>): PublishedNumber | null {
  const label = row.models.toLowerCase();
  const ft = isFinetunedLabel(row.models);
  return (
    published.numbers.find(
      (p) =>
        p.metric === metric &&
        p.mode === row.mode &&
        p.subset === row.subset &&
        (p.characters ?? 'rich') === 'rich' &&
        (p.finetuned ?? false) === ft &&
        label.includes(p.model.toLowerCase()),
    ) ?? null
  );
}

function verdictOf(parley: Summary, paper: PublishedNumber | null): BesideRow['verdict'] {
  if (!paper || parley.mean === null) return null;
  if (paper.lo !== undefined && paper.hi !== undefined) return { inside: parley.mean >= paper.lo && parley.mean <= paper.hi, against: 'paper interval' };
  if (parley.lo === null || parley.hi === null) return null;
  return { inside: paper.value >= parley.lo && paper.value <= parley.hi, against: 'parley interval' };
}

/** Parley's rows for the paper's metrics, each with the paper's number when the data file has one. */
export function besideThePaper(rows: readonly GroupRow[], published: PublishedNumbers): BesideRow[] {
  const out: BesideRow[] = [];
  for (const metric of PAPER_METRICS) {
    for (const r of rows) {
      if (!PAPER_SUBSETS.has(r.subset) || r.metrics[metric].n === 0) continue;
      const paper = paperNumberFor(published, metric, r);
      out.push({ metric, mode: r.mode, models: r.models, subset: r.subset, parley: r.metrics[metric], paper, verdict: verdictOf(r.metrics[metric], paper) });
    }
  }
  return out;
}
