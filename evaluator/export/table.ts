import { csvField } from './csv-field.js';

/**
 * A typed table: what every `parley export --table` builds once and writes as CSV or Parquet, so the
 * two formats hold the same rows and columns, and Parquet keeps each column's type (pandas, polars and R
 * read a `double` as a number and a `string` as text without guessing).
 */
export type ColumnType = 'string' | 'double' | 'int' | 'bool';

export interface Column {
  name: string;
  type: ColumnType;
}

export type Cell = string | number | boolean | null;

export interface Table {
  columns: Column[];
  /** Each row holds one cell per column, in column order; null is a missing value (never 0 or ''). */
  rows: Cell[][];
}

/** The table as RFC 4180 CSV: a header line, then one line per row, CRLF line ends. */
export function tableCsv(table: Table): string {
  const lines = [table.columns.map((c) => csvField(c.name)).join(',')];
  for (const row of table.rows) lines.push(row.map((v) => csvField(v)).join(','));
  return lines.join('\r\n') + '\r\n';
}

/** A column's cells, in row order. */
export function columnCells(table: Table, index: number): Cell[] {
  return table.rows.map((r) => r[index] ?? null);
}
