import type { CurveRow } from './curve-report.js';

/*
 * Per axis, how far the effect moves between its values (issue 43): for each value, the median effect of
 * the specifications that chose it; the axis's swing is the largest median minus the smallest. An axis
 * with a large swing is a choice the claim depends on; one with none is harmless to it.
 */

export interface AxisValue {
  value: unknown;
  /** Specifications with this value and an effect. */
  specifications: number;
  median: number | null;
}

export interface AxisSwing {
  axis: string;
  values: AxisValue[];
  /** Largest minus smallest median over the values that have one; null with fewer than two. */
  swing: number | null;
}

function median(xs: number[]): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Every axis's swing, largest first (axes without one last, in their order). */
export function axisSwings(rows: readonly CurveRow[]): AxisSwing[] {
  const axes = [...new Set(rows.flatMap((r) => Object.keys(r.choices)))];
  const out = axes.map((axis): AxisSwing => {
    const byValue = new Map<string, { value: unknown; effects: number[]; n: number }>();
    for (const r of rows) {
      const key = JSON.stringify(r.choices[axis]);
      const acc = byValue.get(key) ?? { value: r.choices[axis], effects: [], n: 0 };
      if (r.effect.effect !== null) acc.effects.push(r.effect.effect);
      byValue.set(key, acc);
    }
    const values = [...byValue.values()].map((v) => ({ value: v.value, specifications: v.effects.length, median: median(v.effects) }));
    const medians = values.map((v) => v.median).filter((m): m is number => m !== null);
    return { axis, values, swing: medians.length >= 2 ? Math.max(...medians) - Math.min(...medians) : null };
  });
  return out.sort((a, b) => (b.swing ?? -1) - (a.swing ?? -1));
}
