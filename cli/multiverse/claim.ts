import { readTextFile } from '../../disk/read-text.js';
import * as z from 'zod';
import { parseYamlWith } from '../../text/yaml.js';
import { MODES } from '../../protocol/index.js';
import { llmSpecProblem } from '../../llm/spec.js';
import { Experiment } from '../experiment.js';
import { applySeatAxes, hasLlmSeat } from './seat-axes.js';
import { instructionsProblem } from './instructions.js';

/*
 * A claim file (issue 43): a claim (metric, side a, side b, expected sign) and the reasonable choices it
 * should survive (`axes`), over a shared `base`. Every key is an experiment-file key (cli/experiment.ts),
 * validated by the same schema, so an error is `file:line: key: problem` and an unknown key is refused;
 * a claim adds `model`, `temperature` and `instructions` (every LLM seat's, seat-axes.ts) and `mode` (one
 * mode, `modes: [m]`).
 */

/** Experiment keys that say how to run, not what is simulated: not part of a specification. */
const OPERATIONAL = ['arms', 'out', 'concurrency', 'replay', 'pool', 'multiplex', 'retryFailed', 'rpm', 'tpm'] as const;

const shape = Experiment.shape as unknown as Record<string, z.ZodOptional<z.ZodType>>;
const specKeys = Object.keys(shape).filter((k) => !(OPERATIONAL as readonly string[]).includes(k));

/** The model of every LLM seat: an LLM spec (`openai:gpt-4o`); the seat keeps its endpoint and params. */
const ModelSpec = z.string().superRefine((s, ctx) => {
  const problem = llmSpecProblem(s);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** Keys a claim adds to the experiment's: they set every LLM seat at once (seat-axes.ts). */
const CLAIM_KEYS = {
  model: ModelSpec,
  temperature: z.number({ error: 'a temperature is a number from 0 to 2' }).min(0, 'a temperature is from 0 to 2').max(2, 'a temperature is from 0 to 2'),
  instructions: z.string().min(1).superRefine((s, ctx) => {
    const problem = instructionsProblem(s);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
} as const;

/**
 * How the naturalness judge is shown each pair of dialogues (metric `naturalness` only): in one seeded
 * order per pair, as the paper's annotators saw them, or in both orders (a tie when they disagree).
 */
const NaturalnessOrder = z.enum(['one', 'both'], { error: (iss) => `'${String(iss.input)}' is not a naturalness order (allowed: one, both)` });

const settingShape = { ...Object.fromEntries(specKeys.map((k) => [k, shape[k]!.unwrap()])), ...CLAIM_KEYS, naturalnessOrder: NaturalnessOrder } as Record<string, z.ZodType>;

/** The keys a claim's base and sides may set (and `mode`, one mode: the issue's `a: {mode: script}`). */
const Setting = z
  .object({ ...Object.fromEntries(Object.entries(settingShape).map(([k, s]) => [k, s.optional()])), mode: z.enum(MODES, { error: (iss) => `'${String(iss.input)}' is not a mode (allowed: ${MODES.join(', ')})` }).optional() })
  .strict()
  .superRefine((s, ctx) => {
    if (s.mode !== undefined && (s as Record<string, unknown>)['modes'] !== undefined) ctx.addIssue({ code: 'custom', path: ['mode'], message: 'give mode or modes, not both' });
  })
  .transform(({ mode, ...rest }): Setting => (mode === undefined ? rest : { ...rest, modes: [mode] }));
export type Setting = Record<string, unknown>;

/** Each axis is a list of values of one experiment key (or `model`, `temperature`). */
const Axes = z
  .object(Object.fromEntries(Object.entries(settingShape).map(([k, s]) => [k, z.array(s).min(1, 'an axis needs at least one value')])))
  .partial()
  .strict()
  .refine((a) => Object.keys(a).length > 0, 'at least one axis');

export const METRICS = ['success', 'words_per_turn', 'moves', 'repetition', 'goal', 'naturalness'] as const;
export type MetricName = (typeof METRICS)[number];

/** Metrics read from a judge's scores: a claim on one needs a judge, one on another refuses one. */
export const JUDGED_METRICS: readonly MetricName[] = ['goal', 'naturalness'];

/** A metric read from a pairwise judgement of the two sides' dialogues (which is more natural), not from each arm alone. */
export const PAIRWISE_METRICS: readonly MetricName[] = ['naturalness'];

/** Keys that say how a run is judged, not how it is generated: a judge axis re-judges the same runs. */
export const JUDGING_KEYS = ['judge', 'rubric', 'naturalnessOrder'] as const;

export const Claim = z
  .object({
    name: z.string().regex(/^[A-Za-z0-9][\w.-]*$/, 'a name is letters, digits, . _ -'),
    claim: z
      .object({
        metric: z.enum(METRICS, { error: (iss) => `'${String(iss.input)}' is not a metric this version computes (allowed: ${METRICS.join(', ')})` }),
        a: Setting,
        b: Setting,
        expect: z.enum(['a > b', 'a < b'], { error: () => "expect is 'a > b' or 'a < b'" }),
      })
      .strict(),
    base: Setting.default({}),
    axes: Axes,
    sample: z.union([z.literal('all'), z.number().int().positive()]).default('all'),
  })
  .strict()
  .superRefine((c, ctx) => {
    const axes = c.axes as Record<string, unknown[]>;
    for (const key of Object.keys(axes)) {
      // An axis over a key a side sets would be overridden by the side in every specification: refused.
      for (const side of ['a', 'b'] as const) {
        if (key in c.claim[side]) ctx.addIssue({ code: 'custom', path: ['axes', key], message: `claim.${side} sets ${key} too: an axis cannot vary what a side of the claim fixes` });
      }
      // Two equal values would be one specification twice, and two judges of one spec one set of scores.
      const seen = new Set<string>();
      axes[key]!.forEach((v, i) => {
        const k = key === 'judge' ? judgeSpecOf(v) : JSON.stringify(v);
        if (seen.has(k)) ctx.addIssue({ code: 'custom', path: ['axes', key, i], message: `${key === 'judge' ? `judge ${k}` : JSON.stringify(v)} is on this axis twice` });
        seen.add(k);
      });
    }
    judgeRefinement(c.claim.metric, [c.base, c.claim.a, c.claim.b], axes, ctx);
    pairwiseRefinement(c.claim.metric, [c.base, c.claim.a, c.claim.b], axes, ctx);
    seatAxesRefinement([c.base, c.claim.a, c.claim.b], axes, ctx);
  });
export type Claim = z.infer<typeof Claim>;

/** The spec of a judge value: a spec string, or a policy's `spec`. */
export function judgeSpecOf(v: unknown): string {
  return typeof v === 'string' ? v : String((v as { spec?: unknown }).spec);
}

/** A judged metric needs a judge on every specification; any other metric refuses one (it would score nothing). */
function judgeRefinement(metric: MetricName, settings: Setting[], axes: Record<string, unknown[]>, ctx: z.RefinementCtx): void {
  const [base, a, b] = settings as [Setting, Setting, Setting];
  const judged = JUDGED_METRICS.includes(metric);
  if (judged) {
    const everySide = [a, b].every((s) => 'judge' in s || 'judge' in base || 'judge' in axes);
    if (!everySide) ctx.addIssue({ code: 'custom', path: ['claim', 'metric'], message: `${metric} is read from judge scores: give a judge (base.judge, a judge axis or each side's judge)` });
    return;
  }
  const where: (string | number)[][] = [];
  for (const key of JUDGING_KEYS) {
    if (key in axes) where.push(['axes', key]);
    if (key in base) where.push(['base', key]);
    if (key in a) where.push(['claim', 'a', key]);
    if (key in b) where.push(['claim', 'b', key]);
  }
  for (const path of where) ctx.addIssue({ code: 'custom', path, message: `the metric ${metric} is not read from judge scores: a ${String(path[path.length - 1])} would judge for nothing (judged metrics: ${JUDGED_METRICS.join(', ')})` });
}

/**
 * A pairwise metric compares one mode of each side (each side names one) with one judge, no rubric; its
 * `naturalnessOrder` is meaningless for any other metric and refused there.
 */
function pairwiseRefinement(metric: MetricName, settings: Setting[], axes: Record<string, unknown[]>, ctx: z.RefinementCtx): void {
  const [base, a, b] = settings as [Setting, Setting, Setting];
  const pairwise = PAIRWISE_METRICS.includes(metric);
  const places: Array<[(string | number)[], Setting | Record<string, unknown[]>]> = [[['axes'], axes], [['base'], base], [['claim', 'a'], a], [['claim', 'b'], b]];
  for (const [path, where] of places) {
    if (!pairwise && 'naturalnessOrder' in where) ctx.addIssue({ code: 'custom', path: [...path, 'naturalnessOrder'], message: `naturalnessOrder is for the naturalness metric (this claim's metric is ${metric})` });
    if (pairwise && 'rubric' in where) ctx.addIssue({ code: 'custom', path: [...path, 'rubric'], message: 'naturalness is a pairwise question, not a rubric: drop the rubric' });
  }
  if (!pairwise) return;
  for (const [name, side] of [['a', a], ['b', b]] as const) {
    const modes = (side['modes'] ?? base['modes'] ?? (axes['modes'] as unknown[] | undefined)?.[0]) as unknown[] | undefined;
    if (!Array.isArray(modes) || modes.length !== 1) ctx.addIssue({ code: 'custom', path: ['claim', name], message: `naturalness compares one mode of each side: give claim.${name} one mode (mode: script)` });
  }
}

/** A `model` or `temperature` takes effect on some LLM seat of each side, or is refused where it is given. */
function seatAxesRefinement(settings: Setting[], axes: Record<string, unknown[]>, ctx: z.RefinementCtx): void {
  const [base, a, b] = settings as [Setting, Setting, Setting];
  for (const key of Object.keys(CLAIM_KEYS)) {
    const path = key in axes ? ['axes', key] : key in base ? ['base', key] : null;
    for (const [name, side] of [['a', a], ['b', b]] as const) {
      if (path === null && !(key in side)) continue;
      const merged = { ...base, ...Object.fromEntries(Object.entries(axes).map(([k, v]) => [k, v[0]])), ...side };
      if (!hasLlmSeat(applySeatAxes(merged))) {
        ctx.addIssue({ code: 'custom', path: path ?? ['claim', name, key], message: `claim.${name} has no LLM seat for ${key} to set (its seats are bots or people)` });
        return;
      }
    }
  }
}

export type ClaimResult = { ok: true; claim: Claim } | { ok: false; message: string };

/** Reads and validates a claim file; a mistake is one line `file:line: key: problem`. */
export function loadClaim(file: string): ClaimResult {
  const read = readTextFile(file);
  if (!read.ok) return read;
  const parsed = parseYamlWith(Claim, read.text, file);
  return parsed.ok ? { ok: true, claim: parsed.data } : { ok: false, message: parsed.message };
}
