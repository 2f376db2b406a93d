/**
 * `npm run bench:readme`: rewrites README.md's performance table from bench/results.json
 * (bench/readme-table.ts). `npm run bench -- --out bench/results.json` calls it too.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderPerformanceTable, withPerformanceTable, type ResultsForTable } from './readme-table.js';

export const TRACKED_RESULTS = fileURLToPath(new URL('./results.json', import.meta.url));
const README = fileURLToPath(new URL('../README.md', import.meta.url));

/** Regenerates the table; returns whether README.md changed. */
export function writeReadmeTable(): boolean {
  const results = JSON.parse(readFileSync(TRACKED_RESULTS, 'utf8')) as ResultsForTable;
  const before = readFileSync(README, 'utf8');
  const after = withPerformanceTable(before, renderPerformanceTable(results));
  if (after !== before) writeFileSync(README, after);
  return after !== before;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.stdout.write(writeReadmeTable() ? 'README.md: performance table updated from bench/results.json\n' : 'README.md: performance table already matches bench/results.json\n');
}
