import { readFileSync, statSync } from 'node:fs';
import * as z from 'zod';
import { parseYamlWith } from '../text/yaml.js';
import { BOT_ASK_OF, TRUTH_SOURCES, type ProbeDefinition, type TruthSource } from './definitions.js';

/** A probe file is a user's small YAML file: anything larger is a mistake, refused before reading. */
const MAX_PROBE_FILE_BYTES = 64 * 1024;

/**
 * A probe of your own (`--probe FILE`): the question, the answer format the seat is told, a scorer, and
 * where the ground truth comes from (one of the built-in sources; none for a question that is only recorded).
 */
export const ProbeFile = z
  .object({
    name: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'lowercase letters, digits and dashes, up to 40'),
    question: z.string().min(1).max(2000),
    format: z.string().max(500).default(''),
    scorer: z.enum(['exact', 'numeric', 'judge', 'yesno', 'none']),
    truth: z.enum([...(Object.keys(TRUTH_SOURCES) as [TruthSource, ...TruthSource[]]), 'none']),
  })
  .strict()
  .refine((f) => (f.scorer === 'none') === (f.truth === 'none'), { message: "scorer none goes with truth none (a question only recorded), and every other scorer needs a truth", path: ['scorer'] })
  .refine((f) => f.scorer !== 'numeric' || f.truth === 'partner-price', { message: 'a numeric scorer needs a numeric truth (partner-price)', path: ['scorer'] });

export type ProbeFileRead = { ok: true; probe: ProbeDefinition } | { ok: false; message: string };

/** Reads and validates a probe file; a mistake is one line naming the file, the line and the key. */
export function readProbeDefinition(file: string): ProbeFileRead {
  let text: string;
  try {
    const st = statSync(file);
    if (!st.isFile()) return { ok: false, message: `${file}: not a regular file` };
    if (st.size > MAX_PROBE_FILE_BYTES) return { ok: false, message: `${file}: larger than ${MAX_PROBE_FILE_BYTES} bytes; a probe file holds one question` };
    text = readFileSync(file, 'utf8');
  } catch (err) {
    return { ok: false, message: `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` };
  }
  const parsed = parseYamlWith(ProbeFile, text, file);
  if (!parsed.ok) return { ok: false, message: parsed.message };
  const f = parsed.data;
  const source = f.truth === 'none' ? null : TRUTH_SOURCES[f.truth];
  return {
    ok: true,
    probe: {
      name: f.name,
      question: f.question,
      format: f.format,
      scorer: f.scorer,
      botAsk: f.truth === 'none' ? 'other' : BOT_ASK_OF[f.truth],
      truth: source ?? (() => ''),
    },
  };
}
