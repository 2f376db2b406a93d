import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonlLines } from '../disk/jsonl-lines.js';

/**
 * `compare-<mode-a>-vs-<mode-b>.jsonl`: the naturalness verdicts `parley compare` writes into run A (one
 * JSON value per line; their shape is the evaluator's). The one place the name is spelled and the one
 * reader, shared by `compare --human` and `report`, so both see the same lines.
 */
const NAME = /^compare-(.+)-vs-(.+)\.jsonl$/;

/** The file name of the verdicts of mode A against mode B. */
export function compareVerdictsName(modeA: string, modeB: string): string {
  return `compare-${modeA}-vs-${modeB}.jsonl`;
}

/** A verdict file of a run directory, with the modes its name says it compares. */
export interface CompareVerdictsFile {
  file: string;
  modeA: string;
  modeB: string;
}

/** The verdict files in a run directory, sorted by name (none when the directory is absent). */
export function listCompareVerdicts(dir: string): CompareVerdictsFile[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const m = NAME.exec(name);
      return m ? [{ file: join(dir, name), modeA: m[1]!, modeB: m[2]! }] : [];
    });
}

export interface CompareVerdictsRead {
  /** Every complete line that parses as JSON, in file order. */
  values: unknown[];
  /** Lines between newlines that are not JSON: left out, each named so a reader can say so. */
  badLines: { line: number; message: string }[];
  /** Bytes after the last newline (the torn-line rule, disk/jsonl-lines.ts): never a verdict. */
  tornBytes: number;
}

/** Reads a verdict file (throws only when it cannot be read at all). */
export function readCompareVerdicts(file: string): CompareVerdictsRead {
  const { lines, tornBytes } = jsonlLines(readFileSync(file, 'utf8'));
  const out: CompareVerdictsRead = { values: [], badLines: [], tornBytes };
  for (const { line, text } of lines) {
    try {
      out.values.push(JSON.parse(text));
    } catch (err) {
      out.badLines.push({ line, message: `not JSON (${(err as Error).message})` });
    }
  }
  return out;
}
