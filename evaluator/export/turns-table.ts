import { words } from '../metrics/text.js';
import type { RunDir } from '../run-dir.js';
import type { Cell, Column, Table } from './table.js';

/**
 * `parley export --table turns`: one row per move of every episode (linguistic analyses work on moves,
 * not episodes). A turn whose seat failed is a row too, with no action and its error; a `none` that
 * stands for an unreadable reply (`--on-unparsable none`) is flagged `unparsable`. `private_to` lists the
 * seats a private move was addressed to (`action.to`, comma-separated; the speaker saw it too), empty for
 * a public move, which every seat received.
 */
export const TURN_COLUMNS: Column[] = [
  { name: 'run_id', type: 'string' },
  { name: 'episode_id', type: 'string' },
  { name: 'mode', type: 'string' },
  { name: 'scenario_id', type: 'string' },
  { name: 'pair_id', type: 'string' },
  { name: 'repeat', type: 'int' },
  { name: 'turn', type: 'int' },
  { name: 'seat', type: 'string' },
  { name: 'character', type: 'string' },
  { name: 'model', type: 'string' },
  { name: 'action', type: 'string' },
  { name: 'text', type: 'string' },
  { name: 'words', type: 'int' },
  { name: 'private_to', type: 'string' },
  { name: 'unparsable', type: 'bool' },
  { name: 'error', type: 'string' },
  { name: 'latency_ms', type: 'double' },
  { name: 'prompt_tokens', type: 'int' },
  { name: 'completion_tokens', type: 'int' },
];

/** The turns table of the runs. */
export function turnsTable(runs: readonly RunDir[]): Table {
  const rows: Cell[][] = [];
  for (const run of runs) {
    for (const { record } of run.episodes) {
      const seats = new Map(record.seats.map((s) => [s.seat, s]));
      for (const t of record.turns) {
        const seat = seats.get(t.seat);
        const text = t.action?.argument ?? null;
        rows.push([
          record.runId,
          record.episodeId,
          record.mode,
          record.scenarioId,
          record.pairId,
          record.repeat,
          t.turn,
          t.seat,
          seat?.character ?? null,
          t.model ?? seat?.model ?? (record.mode === 'script' ? (record.scriptWriter?.model ?? record.scriptWriter?.policy ?? null) : (seat?.policy ?? null)),
          t.action?.type ?? null,
          text,
          text === null ? null : words(text).length,
          t.action?.to?.length ? t.action.to.join(',') : null,
          t.unparsable !== undefined,
          t.error ? `${t.error.code}: ${t.error.message}` : t.unparsable ? `${t.unparsable.code}: ${t.unparsable.message}` : t.providerError ? `${t.providerError.code}: ${t.providerError.message}` : null,
          t.latencyMs ?? null,
          t.usage?.prompt ?? null,
          t.usage?.completion ?? null,
        ]);
      }
    }
  }
  return { columns: TURN_COLUMNS, rows };
}
