import type { RunDir } from '../evaluator/run-dir.js';

/** The episode filters of `parley report` (--mode, --subset, --model, --selection). */
export interface Filters {
  mode?: string[];
  subset?: string;
  model?: string;
  /** Which draws count (default: the run's protocol setting; runs without one count every episode). */
  selection?: 'first-valid' | 'all';
}

/**
 * The run's episodes under a selection rule: `first-valid` keeps the counted draws (and records without a
 * mark, from before the rule), `all` every draw. Every draw stays in `allDraws` for the draw counts.
 */
export function selected(run: RunDir, selection: Filters['selection']): RunDir {
  const rule = selection ?? (run.run?.protocol as { selection?: 'first-valid' | 'all' } | undefined)?.selection ?? 'all';
  const episodes = rule === 'all' ? run.episodes : run.episodes.filter((e) => (e.record.selection?.status ?? 'counted') === 'counted');
  return { ...run, episodes, allDraws: run.episodes, selection: rule };
}

/** The run with only the episodes the filters keep. */
export function filtered(run: RunDir, f: Filters): RunDir {
  const chosen = selected(run, f.selection);
  const keep = chosen.episodes.filter(({ record: r }) => {
    if (f.mode && !f.mode.includes(r.mode)) return false;
    if (f.subset && !(run.scenarios.get(r.scenarioId)?.subsets ?? []).includes(f.subset)) return false;
    if (f.model) {
      const players = [...r.seats, ...(r.scriptWriter && r.mode === 'script' ? [r.scriptWriter] : [])];
      if (!players.some((p) => [p.policy, p.model ?? '', `${p.provider ?? ''}:${p.model ?? ''}`].some((t) => t.includes(f.model!)))) return false;
    }
    return true;
  });
  return { ...chosen, episodes: keep };
}

/** A folder name for a filter: `mode-agents_subset-hard`. */
export function filterSlug(f: Filters): string {
  const parts = [f.mode ? `mode-${f.mode.join('+')}` : '', f.subset ? `subset-${f.subset}` : '', f.model ? `model-${f.model}` : '', f.selection ? `selection-${f.selection}` : ''].filter(Boolean);
  return parts.join('_').replace(/[^A-Za-z0-9+._-]/g, '_');
}
