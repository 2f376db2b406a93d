import type { RunDir } from '../run-dir.js';
import { episodesTable } from './csv.js';
import { seatsTable } from './seats-table.js';
import type { Table } from './table.js';
import { turnsTable } from './turns-table.js';
import { verdictsTable } from './verdicts-table.js';

/** The tables `parley export --table` writes, as CSV or Parquet. */
export const TABLES = ['episodes', 'seats', 'turns', 'verdicts'] as const;
export type TableName = (typeof TABLES)[number];

/** Builds one table of the runs; `skipped` names input lines left out (unreadable verdict lines). */
export function exportTable(name: TableName, runs: readonly RunDir[]): { table: Table; skipped: string[] } {
  switch (name) {
    case 'episodes':
      return { table: episodesTable(runs), skipped: [] };
    case 'seats':
      return { table: seatsTable(runs), skipped: [] };
    case 'turns':
      return { table: turnsTable(runs), skipped: [] };
    case 'verdicts':
      return verdictsTable(runs);
  }
}
