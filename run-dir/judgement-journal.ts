import { appendFileSync, existsSync, rmSync } from 'node:fs';
import * as z from 'zod';
import { Evaluation } from '../protocol/index.js';
import { readJsonlFile, type JsonlRead } from './jsonl-file.js';
import type { RunLock } from './lock.js';
import type { RunPaths } from './paths.js';

/**
 * `judgements.journal.jsonl`: every judgement `eval` gets back is appended here at once, one whole line
 * (an episode's evaluation as it stands after it), so what was paid for is on disk the moment it returns,
 * whatever happens next (a second Ctrl-C, a kill). `eval` writes episodes.jsonl whole only now and then
 * (each rewrite is the whole file); each rewrite empties the journal. A reader applies the journal's
 * lines, in order, over the records (the last line of an episode wins): evaluations are whole, so a line
 * applied twice changes nothing.
 */
export const JournalLine = z.object({ episodeId: z.string().min(1).max(300), evaluation: Evaluation });
export type JournalLine = z.infer<typeof JournalLine>;

/** Appends one judgement as a single write of a whole line (the journal's commit point). */
export function appendJudgement(lock: RunLock, line: JournalLine): void {
  appendFileSync(lock.paths.judgementsJournal, JSON.stringify(line) + '\n');
}

/** The journal's lines (none when absent); a torn last line is left out, a bad one is an error naming it. */
export function readJudgementJournal(paths: RunPaths): JsonlRead<JournalLine> {
  if (!existsSync(paths.judgementsJournal)) return { ok: true, values: [], tornBytes: 0 };
  return readJsonlFile(paths.judgementsJournal, JournalLine);
}

/** Called right after episodes.jsonl was rewritten with every journalled judgement in it. */
export function clearJudgementJournal(lock: RunLock): void {
  rmSync(lock.paths.judgementsJournal, { force: true });
}
