import { readFile, rename, writeFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { EpisodeRecord } from '../protocol/index.js';
import { Scenario } from '../scenarios/model.js';

/** A failure to read a run directory, naming the file, line and field. */
export interface RunDirError {
  code: 'run/missing_file' | 'run/bad_json' | 'run/bad_record';
  message: string;
}

/** One episode as loaded: the validated record, and the raw JSON object (kept to rewrite unknown fields verbatim). */
export interface LoadedEpisode {
  record: EpisodeRecord;
  raw: Record<string, unknown>;
  line: number;
}

export interface RunDir {
  dir: string;
  /** `run.json` as written by the orchestrator (shape owned there; read defensively), or null if absent. */
  run: Record<string, unknown> | null;
  scenarios: Map<string, Scenario>;
  episodes: LoadedEpisode[];
}

export type LoadResult = { ok: true; run: RunDir } | { ok: false; error: RunDirError };

function zodWhere(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  const first = issues[0];
  if (!first) return 'invalid';
  const field = first.path.map(String).join('.') || '(record)';
  return `field ${field}: ${first.message}`;
}

async function readJsonl<T>(
  file: string,
  parse: (value: unknown) => { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } },
): Promise<{ ok: true; rows: { value: T; raw: Record<string, unknown>; line: number }[] } | { ok: false; error: RunDirError }> {
  const text = await readFile(file, 'utf8');
  const rows: { value: T; raw: Record<string, unknown>; line: number }[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line) continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (err) {
      return { ok: false, error: { code: 'run/bad_json', message: `${file}:${i + 1}: not JSON (${(err as Error).message})` } };
    }
    const parsed = parse(raw);
    if (!parsed.success) {
      return { ok: false, error: { code: 'run/bad_record', message: `${file}:${i + 1}: ${zodWhere(parsed.error.issues)}` } };
    }
    rows.push({ value: parsed.data, raw: raw as Record<string, unknown>, line: i + 1 });
  }
  return { ok: true, rows };
}

/**
 * Loads `DIR/run.json` (optional), `DIR/scenarios.jsonl` (optional: without it, metrics that need the
 * scenario's truth or targets are null) and `DIR/episodes.jsonl` (required).
 */
export async function loadRunDir(dir: string): Promise<LoadResult> {
  const episodesFile = path.join(dir, 'episodes.jsonl');
  if (!existsSync(episodesFile)) {
    return { ok: false, error: { code: 'run/missing_file', message: `${episodesFile}: not found (is ${dir} a run directory?)` } };
  }
  let run: Record<string, unknown> | null = null;
  const runFile = path.join(dir, 'run.json');
  if (existsSync(runFile)) {
    try {
      run = JSON.parse(await readFile(runFile, 'utf8')) as Record<string, unknown>;
    } catch (err) {
      return { ok: false, error: { code: 'run/bad_json', message: `${runFile}: not JSON (${(err as Error).message})` } };
    }
  }
  const scenarios = new Map<string, Scenario>();
  const scenariosFile = path.join(dir, 'scenarios.jsonl');
  if (existsSync(scenariosFile)) {
    const read = await readJsonl(scenariosFile, (v) => Scenario.safeParse(v));
    if (!read.ok) return read;
    for (const row of read.rows) scenarios.set(row.value.id, row.value);
  }
  const read = await readJsonl(episodesFile, (v) => EpisodeRecord.safeParse(v));
  if (!read.ok) return read;
  const episodes = read.rows.map((r) => ({ record: r.value, raw: r.raw, line: r.line }));
  return { ok: true, run: { dir, run, scenarios, episodes } };
}

/**
 * Replaces `DIR/episodes.jsonl` atomically (temp file + rename), so a crash never leaves it half-written.
 * Rows are the raw objects, so fields this code does not know survive the rewrite.
 */
export async function writeEpisodesAtomic(dir: string, rows: readonly Record<string, unknown>[]): Promise<void> {
  await writeFileAtomic(path.join(dir, 'episodes.jsonl'), rows.map((r) => JSON.stringify(r) + '\n').join(''));
}

/** Writes a file through a temp file in the same directory and a rename. */
export async function writeFileAtomic(file: string, content: string): Promise<void> {
  const tmp = `${file}.tmp-${process.pid}-${Date.now().toString(36)}`;
  try {
    await writeFile(tmp, content);
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}
