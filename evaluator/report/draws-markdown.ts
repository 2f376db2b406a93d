import { drawCountLines, drawCounts } from '../../run-dir/index.js';
import type { RunDir } from '../run-dir.js';
import { mdText } from './markdown-text.js';

/**
 * The card's account of the selection rule (issue 42): which draws this report counts and, per mode and
 * models, how many draws each counted episode took and why the others were superseded. Shown when a run
 * selects (`first-valid`) or holds re-draws; the selection itself is a finding (`report --selection all`
 * shows every draw).
 */
export function drawsMarkdown(runs: readonly RunDir[]): string[] {
  const draws = runs.flatMap((r) => (r.allDraws ?? r.episodes).map((e) => e.record));
  const selecting = runs.some((r) => r.selection === 'first-valid') || draws.some((r) => r.selection);
  if (!selecting) return [];
  const rules = [...new Set(runs.map((r) => r.selection ?? 'all'))];
  const rule = rules
    .map((s) => (s === 'first-valid' ? "the first valid draw of each instance (SOTOPIA's procedure: an episode of 5 or fewer moves or script turns, or one the judge could not score, re-drawn)" : 'every draw, superseded ones included'))
    .join('; ');
  return ['', '**Selection and draws**', '', `- this report counts ${rule}`, ...drawCountLines(drawCounts(draws)).map((l) => `- ${mdText(l)}`)];
}
