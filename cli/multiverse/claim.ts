import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { parseYamlWith } from '../../text/yaml.js';
import { Experiment } from '../experiment.js';

/*
 * A claim file (issue 43): a claim (metric, side a, side b, expected sign) and the reasonable choices it
 * should survive (`axes`), over a shared `base`. Every key is an experiment-file key (cli/experiment.ts),
 * validated by the same schema, so an error is `file:line: key: problem` and an unknown key is refused.
 */

/** Experiment keys that say how to run, not what is simulated: not part of a specification. */
const OPERATIONAL = ['arms', 'out', 'concurrency', 'replay', 'pool', 'multiplex', 'retryFailed', 'rpm', 'tpm'] as const;

const shape = Experiment.shape as unknown as Record<string, z.ZodOptional<z.ZodType>>;
const specKeys = Object.keys(shape).filter((k) => !(OPERATIONAL as readonly string[]).includes(k));

/** The experiment keys a claim's base and sides may set. */
const Setting = z.object(Object.fromEntries(specKeys.map((k) => [k, shape[k]!]))).strict();
export type Setting = z.infer<typeof Setting>;

/** Each axis is a list of values of one experiment key. */
const Axes = z
  .object(Object.fromEntries(specKeys.map((k) => [k, z.array(shape[k]!.unwrap()).min(1, 'an axis needs at least one value')])))
  .partial()
  .strict()
  .refine((a) => Object.keys(a).length > 0, 'at least one axis');

export const METRICS = ['success', 'words_per_turn', 'moves', 'repetition', 'goal'] as const;
export type MetricName = (typeof METRICS)[number];

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
    // An axis over a key a side sets would be overridden by the side in every specification: refused.
    for (const key of Object.keys(c.axes)) {
      for (const side of ['a', 'b'] as const) {
        if (key in c.claim[side]) ctx.addIssue({ code: 'custom', path: ['axes', key], message: `claim.${side} sets ${key} too: an axis cannot vary what a side of the claim fixes` });
      }
    }
  });
export type Claim = z.infer<typeof Claim>;

export type ClaimResult = { ok: true; claim: Claim } | { ok: false; message: string };

/** Reads and validates a claim file; a mistake is one line `file:line: key: problem`. */
export function loadClaim(file: string): ClaimResult {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    return { ok: false, message: `${file}: cannot read (${(err as Error).message})` };
  }
  const parsed = parseYamlWith(Claim, text, file);
  return parsed.ok ? { ok: true, claim: parsed.data } : { ok: false, message: parsed.message };
}
