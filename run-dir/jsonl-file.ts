import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { RunErrorCode } from '../protocol/index.js';

/** A JSONL file read against a schema: every value, or the first line that is not JSON or not of the shape. */
export type JsonlRead<T> = { ok: true; values: T[] } | { ok: false; code: typeof RunErrorCode.BadJson | typeof RunErrorCode.BadRecord; message: string };

/**
 * Reads a whole JSONL file of the run directory (scenarios.jsonl, a seat's ledger), each line checked
 * against `schema`; blank lines are skipped. An error names the file, the line and the field.
 */
export function readJsonlFile<S extends z.ZodType>(file: string, schema: S): JsonlRead<z.infer<S>> {
  const values: z.infer<S>[] = [];
  const lines = readFileSync(file, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line) continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (err) {
      return { ok: false, code: RunErrorCode.BadJson, message: `${file}:${i + 1}: not JSON (${(err as Error).message})` };
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return { ok: false, code: RunErrorCode.BadRecord, message: `${file}:${i + 1}: field ${issue?.path.map(String).join('.') || '(record)'}: ${issue?.message ?? 'invalid'}` };
    }
    values.push(parsed.data);
  }
  return { ok: true, values };
}
