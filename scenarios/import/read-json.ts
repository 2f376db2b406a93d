import { readFile } from 'node:fs/promises';
import type * as z from 'zod';
import { ScenarioError, ScenarioErrorCode, zodToScenarioError } from '../errors.js';
import { jsonErrorOffset } from './json-syntax.js';

/** One validated record and where it came from, so later cross-checks can still name the line. */
export interface Located<T> {
  value: T;
  file: string;
  line: number;
}

/** Reads a file as UTF-8, turning I/O failures into a ScenarioError naming the file. */
export async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    throw new ScenarioError(ScenarioErrorCode.Io, `cannot read (${(err as Error).message})`, { file }, { cause: err });
  }
}

/** Parses JSONL text line by line (blank lines skipped); a line that is not JSON throws naming file and line. */
export function parseJsonLines(text: string, file: string): { json: unknown; line: number }[] {
  const out: { json: unknown; line: number }[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.trim();
    if (raw === '') continue;
    const line = i + 1;
    try {
      out.push({ json: JSON.parse(raw), line });
    } catch (err) {
      throw new ScenarioError(ScenarioErrorCode.BadJson, `bad JSON (${(err as Error).message})`, { file, line }, { cause: err });
    }
  }
  return out;
}

/** Reads a JSONL file and validates every non-blank line with `schema`; the first bad line throws. */
export async function readJsonl<S extends z.ZodType>(file: string, schema: S): Promise<Located<z.infer<S>>[]> {
  return parseJsonLines(await readText(file), file).map(({ json, line }) => ({ value: validate(schema, json, { file, line }), file, line }));
}

/** Validates a value, reporting the first issue with its field path. */
export function validate<S extends z.ZodType>(schema: S, json: unknown, where: { file: string; line?: number }, prefix: readonly PropertyKey[] = []): z.infer<S> {
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  throw zodToScenarioError(parsed.error, where, prefix);
}

/** Parses a whole JSON document, reporting a syntax error with its line. */
export function parseJsonDocument(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    const msg = (err as Error).message;
    const offset = jsonErrorOffset(text);
    const line = offset >= 0 ? lineAt(text, offset) : undefined;
    throw new ScenarioError(ScenarioErrorCode.BadJson, `bad JSON (${msg})`, line !== undefined ? { file, line } : { file }, { cause: err });
  }
}

/** 1-based line number of a character offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * Line on which each element of a top-level JSON array starts, so errors in a record of a JSON list
 * file (cocoa's format) can name a line. Assumes `text` is valid JSON.
 */
export function arrayElementLines(text: string): number[] {
  const lines: number[] = [];
  let depth = 0;
  let inString = false;
  let line = 1;
  let expectValue = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\n') line++;
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (depth === 1 && expectValue && !/\s/.test(ch) && ch !== ']') {
      lines.push(line);
      expectValue = false;
    }
    if (ch === '"') inString = true;
    else if (ch === '[' || ch === '{') {
      depth++;
      if (depth === 1) expectValue = true;
    } else if (ch === ']' || ch === '}') depth--;
    else if (ch === ',' && depth === 1) expectValue = true;
  }
  return lines;
}
