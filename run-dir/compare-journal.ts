import { appendFileSync, existsSync, rmSync } from 'node:fs';
import { readCompareVerdicts } from './compare-verdicts.js';

/**
 * `<verdicts>.journal`: every naturalness verdict a live `parley compare` gets back is appended here at
 * once, one whole line, so what was paid for is on disk the moment it returns (a second Ctrl-C, a kill).
 * The verdicts file itself is written whole at the end (or at the first Ctrl-C), which empties the journal.
 * `compare --missing` reads both (the journal's line of a pair wins). The name does not end in `.jsonl`,
 * so `report` and `compare --human` never take a journal for a finished comparison.
 */
export function compareJournalFile(verdictsFile: string): string {
  return `${verdictsFile}.journal`;
}

/**
 * Appends one verdict as a single write of a whole line (the journal's commit point). The caller holds the
 * run's lock when the file lies inside a run directory.
 */
export function appendCompareVerdict(verdictsFile: string, verdict: unknown): void {
  appendFileSync(compareJournalFile(verdictsFile), JSON.stringify(verdict) + '\n');
}

/** Called right after the verdicts file was written with every journalled verdict in it. */
export function clearCompareJournal(verdictsFile: string): void {
  rmSync(compareJournalFile(verdictsFile), { force: true });
}

/** The values a resume starts from: the verdicts file's lines, then the journal's (absent files hold none). */
export function readSavedVerdicts(verdictsFile: string): { values: unknown[]; problems: string[] } {
  const values: unknown[] = [];
  const problems: string[] = [];
  for (const file of [verdictsFile, compareJournalFile(verdictsFile)]) {
    if (!existsSync(file)) continue;
    const read = readCompareVerdicts(file);
    values.push(...read.values);
    for (const b of read.badLines) problems.push(`${file}:${b.line}: ${b.message}`);
  }
  return { values, problems };
}
