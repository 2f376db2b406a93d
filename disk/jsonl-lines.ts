/**
 * The one torn-line rule of Parley's JSONL files (episodes, cassettes, compare verdicts). Every writer
 * appends whole lines ending in '\n' (or replaces the file atomically), so bytes after the last newline
 * can only be the cut-short write of a process that died mid-append: they are never a value, whether or
 * not they happen to parse. Readers leave them out and say so (`tornBytes`); a bad line *between*
 * newlines is something else (a hand edit, a bug) and each reader reports it by number.
 */
export interface JsonlLines {
  /** The complete lines that are not blank, with their 1-based line numbers. */
  lines: { line: number; text: string }[];
  /** Bytes after the last newline (an interrupted append), or 0. */
  tornBytes: number;
  /** The 1-based line number of the torn tail, when there is one. */
  tornLine: number | null;
}

/** Splits a JSONL file's text into its complete lines and its torn tail. */
export function jsonlLines(text: string): JsonlLines {
  const end = text.lastIndexOf('\n') + 1;
  const whole = text.slice(0, end).split('\n');
  whole.pop(); // the empty string after the last '\n'
  const lines = whole.flatMap((t, i) => (t.trim() === '' ? [] : [{ line: i + 1, text: t }]));
  const tornBytes = Buffer.byteLength(text.slice(end), 'utf8');
  const tornLine = tornBytes > 0 && text.slice(end).trim() !== '' ? whole.length + 1 : null;
  return { lines, tornBytes, tornLine };
}
