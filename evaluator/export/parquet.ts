import { parquetWriteBuffer } from 'hyparquet-writer';
import { columnCells, type ColumnType, type Table } from './table.js';

/** Parquet's type of each table column type (strings as UTF-8, so readers show text, not bytes). */
const PARQUET_TYPE = { string: 'STRING', double: 'DOUBLE', int: 'INT64', bool: 'BOOLEAN' } as const satisfies Record<ColumnType, string>;

/**
 * The table as a Parquet file (hyparquet-writer: pure JavaScript, no native build). Every column is
 * nullable and typed from the table, not guessed from its values, so an all-empty column keeps its type
 * and a table with no rows is still a valid file. Integers are INT64 (bigint), as pandas reads them.
 */
export function tableParquet(table: Table, createdBy: string): Uint8Array {
  const columnData = table.columns.map((c, i) => {
    const cells = columnCells(table, i);
    const data = c.type === 'int' ? cells.map((v) => (typeof v === 'number' ? BigInt(Math.trunc(v)) : null)) : cells;
    return { name: c.name, data, type: PARQUET_TYPE[c.type], nullable: true };
  });
  return new Uint8Array(parquetWriteBuffer({ columnData, createdBy }));
}
