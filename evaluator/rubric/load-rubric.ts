import { readFileSync } from 'node:fs';
import { parseYamlWith } from '../../text/yaml.js';
import { BUILTIN_RUBRICS } from './builtin.js';
import { RubricFile, rubricFromFile, type Rubric } from './rubric.js';

/** A rubric file too large to be a rubric is refused before parsing (24 dimensions × 4,000 characters fit easily). */
const MAX_FILE_BYTES = 256 * 1024;

export type RubricLoad = { ok: true; rubric: Rubric } | { ok: false; message: string };

/**
 * `--rubric ARG`: a built-in name (`sotopia`, `goal`) or a YAML file. Errors are one line naming the
 * file, the line and the key (`rubric.yaml:6: dimensions.0.range: minimum 5 exceeds maximum 0`).
 */
export function loadRubric(arg: string): RubricLoad {
  const builtin = BUILTIN_RUBRICS.get(arg);
  if (builtin) return { ok: true, rubric: builtin };
  let text: string;
  try {
    text = readFileSync(arg, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { ok: false, message: `${arg}: cannot read (${code === 'ENOENT' ? `no such file; built-in rubrics: ${[...BUILTIN_RUBRICS.keys()].join(', ')}` : (err as Error).message})` };
  }
  return parseRubric(text, arg);
}

/** Parses rubric YAML text; `file` names it in errors. */
export function parseRubric(text: string, file: string): RubricLoad {
  if (Buffer.byteLength(text) > MAX_FILE_BYTES) return { ok: false, message: `${file}: larger than ${MAX_FILE_BYTES} bytes, not a rubric` };
  const parsed = parseYamlWith(RubricFile, text, file);
  if (!parsed.ok) return { ok: false, message: parsed.message };
  return { ok: true, rubric: rubricFromFile(parsed.data) };
}
