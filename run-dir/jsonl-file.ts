import { readRegularFile, RUN_FILE_CAPS } from '../disk/regular-file.js';
import type * as z from 'zod';
import { jsonlLines } from '../disk/jsonl-lines.js';
import { compiledForMany, RunErrorCode } from '../protocol/index.js';

/**
 * A JSONL file read against a schema: every value, or the first line that is not JSON or not of the shape.
 * `tornBytes`: bytes after the last newline, left out by the one torn-line rule (disk/jsonl-lines.ts).
 */
export type JsonlRead<T> = { ok: true; values: T[]; tornBytes: number } | { ok: false; code: typeof RunErrorCode.BadJson | typeof RunErrorCode.BadRecord; message: string };

/**
 * Reads a whole JSONL file of the run directory (scenarios.jsonl, a seat's ledger), each complete line
 * checked against `schema`; blank lines are skipped, a torn tail (a crash mid-append) is left out. An
 * error names the file, the line and the field.
 */
export function readJsonlFile<S extends z.ZodType>(file: string, schema: S, root?: string): JsonlRead<z.infer<S>> {
  const values: z.infer<S>[] = [];
  // Only a regular file, reached without symlinks from `root` (the run directory), of bounded size.
  const read = readRegularFile(file, RUN_FILE_CAPS.jsonl, root);
  if (!read.ok) return { ok: false, code: RunErrorCode.BadRecord, message: read.message };
  const { lines, tornBytes } = jsonlLines(read.text);
  const checker = compiledForMany(schema, lines.length);
  for (const { line: n, text } of lines) {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (err) {
      return { ok: false, code: RunErrorCode.BadJson, message: `${file}:${n}: not JSON (${(err as Error).message})` };
    }
    const parsed = checker.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return { ok: false, code: RunErrorCode.BadRecord, message: `${file}:${n}: field ${issue?.path.map(String).join('.') || '(record)'}: ${issue?.message ?? 'invalid'}` };
    }
    values.push(parsed.data);
  }
  return { ok: true, values, tornBytes };
}
