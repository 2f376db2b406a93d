import type { RunDir } from '../evaluator/run-dir.js';

/** The episode filters of `parley report` (--mode, --subset, --model). */
export interface Filters {
  mode?: string[];
  subset?: string;
  model?: string;
}

/** The run with only the episodes the filters keep. */
export function filtered(run: RunDir, f: Filters): RunDir {
  const keep = run.episodes.filter(({ record: r }) => {
    if (f.mode && !f.mode.includes(r.mode)) return false;
    if (f.subset && !(run.scenarios.get(r.scenarioId)?.subsets ?? []).includes(f.subset)) return false;
    if (f.model) {
      const players = [...r.seats, ...(r.scriptWriter && r.mode === 'script' ? [r.scriptWriter] : [])];
      if (!players.some((p) => [p.policy, p.model ?? '', `${p.provider ?? ''}:${p.model ?? ''}`].some((t) => t.includes(f.model!)))) return false;
    }
    return true;
  });
  return { ...run, episodes: keep };
}

/** A folder name for a filter: `mode-agents_subset-hard`. */
export function filterSlug(f: Filters): string {
  const parts = [f.mode ? `mode-${f.mode.join('+')}` : '', f.subset ? `subset-${f.subset}` : '', f.model ? `model-${f.model}` : ''].filter(Boolean);
  return parts.join('_').replace(/[^A-Za-z0-9+._-]/g, '_');
}
