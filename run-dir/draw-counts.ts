import type { EpisodeRecord } from '../protocol/index.js';

/**
 * What the records of a run say about the `first-valid` selection rule (protocol setting `selection`),
 * per mode and generating models: how many instances were played, how many draws each counted episode
 * took, and why draws were superseded. Read by the run summary (orchestrator) and the report's card
 * (evaluator), so both print the same counts.
 */
export interface DrawCounts {
  mode: string;
  /** `writer <model>` in script mode, `<model A> × <model B>` otherwise (the report's grouping). */
  models: string;
  /** Instances (scenario, character pair, repeat) with at least one draw. */
  instances: number;
  /** Every draw recorded. */
  draws: number;
  /** Counted episodes by how many draws they took: `{ 1: 4, 2: 2 }`. */
  drawsPerCounted: Record<number, number>;
  superseded: { short: number; unscored: number };
  /** Instances whose last allowed draw was invalid too: no counted episode. */
  exhausted: number;
}

/** Who generated the dialogue: the same label the report groups by (evaluator/metrics). */
export function generatorLabel(r: Pick<EpisodeRecord, 'mode' | 'seats' | 'scriptWriter'>): string {
  if (r.mode === 'script') return `writer ${r.scriptWriter?.model ?? r.scriptWriter?.policy ?? '?'}`;
  return r.seats.map((s) => s.model ?? s.policy).join(' × ');
}

/** Draw counts per mode × models, over every draw of the run (marks absent: each record its own counted draw). */
export function drawCounts(records: readonly EpisodeRecord[]): DrawCounts[] {
  const groups = new Map<string, { c: DrawCounts; instances: Set<string> }>();
  for (const r of records) {
    if (r.fork) continue;
    const models = generatorLabel(r);
    const key = `${r.mode}\u0000${models}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { c: { mode: r.mode, models, instances: 0, draws: 0, drawsPerCounted: {}, superseded: { short: 0, unscored: 0 }, exhausted: 0 }, instances: new Set() }));
    g.instances.add(`${r.scenarioId}\u0000${r.pairId}\u0000${r.repeat}`);
    g.c.draws += 1;
    const status = r.selection?.status ?? 'counted';
    if (status === 'counted') {
      const n = (r.draw ?? 0) + 1;
      g.c.drawsPerCounted[n] = (g.c.drawsPerCounted[n] ?? 0) + 1;
    } else if (status === 'exhausted') g.c.exhausted += 1;
    else if (r.selection?.reason) g.c.superseded[r.selection.reason] += 1;
  }
  return [...groups.values()].map((g) => ({ ...g.c, instances: g.instances.size }));
}

/** One line per group: `agents (m × m): 6 instances, 12 draws (6 re-draws: 6 short, 0 unscored); counted after 1 draw ×0, 2 draws ×6; 0 with no valid draw`. */
export function drawCountLines(counts: readonly DrawCounts[]): string[] {
  return counts.map((c) => {
    const per = Object.entries(c.drawsPerCounted)
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([n, k]) => `${n} draw${n === '1' ? '' : 's'} ×${k}`)
      .join(', ');
    const redraws = c.draws - c.instances;
    return (
      `${c.mode} (${c.models}): ${c.instances} instance(s), ${c.draws} draw(s), ${redraws} re-draw(s) (superseded: ${c.superseded.short} short, ${c.superseded.unscored} unscored); ` +
      `counted episodes by draws taken: ${per || 'none'}; ${c.exhausted} instance(s) with no valid draw within the bound`
    );
  });
}
