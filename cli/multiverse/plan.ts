import { createHash } from 'node:crypto';
import { seededRandom } from '../../evaluator/stats/rng.js';
import { JUDGING_KEYS, type Claim, type Setting } from './claim.js';
import { applySeatAxes } from './seat-axes.js';

/** One specification: a value per axis; its two arms are experiments with an identity each. */
export interface Specification {
  /** 1-based, in the order of the cartesian product. */
  index: number;
  choices: Record<string, unknown>;
  a: Arm;
  b: Arm;
  /** How each side's runs are judged (its judge and rubric; empty when the metric is not judged). */
  judging: { a: Judging; b: Judging };
}

/** How an arm's episodes are judged for one side of a specification: not part of the arm, so a judge axis re-judges the same runs. */
export interface Judging {
  judge?: unknown;
  rubric?: string;
}

/** A side's experiment (base + choices + side, the seat axes applied) split into what is generated and how it is judged. */
function sideOf(setting: Setting): { arm: Arm; judging: Judging } {
  const experiment = applySeatAxes(setting);
  const judging: Judging = {};
  const generation: Setting = {};
  for (const [k, v] of Object.entries(experiment)) {
    if ((JUDGING_KEYS as readonly string[]).includes(k)) (judging as Record<string, unknown>)[k] = v;
    else generation[k] = v;
  }
  return { arm: armOf(generation), judging };
}

/** One run: an experiment (base + choices + side), stored under `arms/<id>` of the multiverse directory. */
export interface Arm {
  id: string;
  experiment: Setting;
}

/** JSON with object keys sorted, so that equal experiments have equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** An experiment's identity: equal experiments share a run directory, so an arm is run once. */
export function armOf(experiment: Setting): Arm {
  return { id: createHash('sha256').update(canonicalJson(experiment)).digest('hex').slice(0, 16), experiment };
}

/** Every specification (the cartesian product of the axes, in the experiment schema's key order), or a seeded sample of them. */
export function planSpecifications(claim: Claim): Specification[] {
  let combos: Record<string, unknown>[] = [{}];
  for (const [key, values] of Object.entries(claim.axes) as [string, unknown[]][]) {
    combos = combos.flatMap((c) => values.map((v) => ({ ...c, [key]: v })));
  }
  let specs = combos.map((choices, i) => {
    const a = sideOf({ ...claim.base, ...choices, ...claim.claim.a });
    const b = sideOf({ ...claim.base, ...choices, ...claim.claim.b });
    return { index: i + 1, choices, a: a.arm, b: b.arm, judging: { a: a.judging, b: b.judging } };
  });
  if (claim.sample !== 'all' && claim.sample < specs.length) {
    // A seeded shuffle (Fisher–Yates), then the first N in product order: the same file draws the same sample.
    const rand = seededRandom(1);
    const order = specs.map((_, i) => i);
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const kept = new Set(order.slice(0, claim.sample));
    specs = specs.filter((_, i) => kept.has(i));
  }
  return specs;
}

/** The distinct arms of the specifications, each once. */
export function distinctArms(specs: readonly Specification[]): Arm[] {
  const byId = new Map<string, Arm>();
  for (const s of specs) for (const arm of [s.a, s.b]) byId.set(arm.id, arm);
  return [...byId.values()];
}
