import { appendFileSync, closeSync, existsSync, fsyncSync, openSync, readFileSync } from 'node:fs';
import { jsonlLines } from '../disk/jsonl-lines.js';
import { ProbeRecord } from './probe-record.js';

export type ProbeFileRead = { ok: true; records: ProbeRecord[]; tornBytes: number } | { ok: false; message: string };

/** Reads a probe file (absent: empty); every line checked, the first bad one named with its line number. */
export function readProbeFile(file: string): ProbeFileRead {
  if (!existsSync(file)) return { ok: true, records: [], tornBytes: 0 };
  const { lines, tornBytes } = jsonlLines(readFileSync(file, 'utf8'));
  const records: ProbeRecord[] = [];
  for (const { line, text } of lines) {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return { ok: false, message: `${file}:${line}: not JSON` };
    }
    const parsed = ProbeRecord.safeParse(raw);
    if (!parsed.success) return { ok: false, message: `${file}:${line}: not a probe record (${parsed.error.issues[0]?.path.join('.') || 'line'}: ${parsed.error.issues[0]?.message})` };
    records.push(parsed.data);
  }
  return { ok: true, records, tornBytes };
}

/** Appends one answer and syncs it to disk before returning: an answer paid for is never lost to a crash. */
export function appendProbeRecord(file: string, record: ProbeRecord): void {
  appendFileSync(file, `${JSON.stringify(record)}\n`);
  const fd = openSync(file, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
