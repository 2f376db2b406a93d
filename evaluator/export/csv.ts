import { DIMENSION_NAMES } from '../dimensions.js';
import { isSotopia } from '../rubric/builtin.js';
import { episodeMetrics, type EpisodeMetrics } from '../metrics/episode-metrics.js';
import { runProtocol } from '../run-protocol.js';
import type { RunDir } from '../run-dir.js';
import { csvField } from './csv-field.js';
import { tableCsv, type Cell, type ColumnType, type Table } from './table.js';

export { csvField };

/** Columns of the per-episode-and-seat table. */
export const CSV_COLUMNS = [
  'run_id',
  'episode_id',
  'mode',
  'scenario_id',
  'env_id',
  'pair_id',
  'repeat',
  'kind',
  'subsets',
  'status',
  'termination',
  'models',
  'seat',
  'character',
  'policy',
  'model',
  'episode_moves',
  'turns',
  'error_turns',
  'speech_turns',
  'words',
  'words_per_turn',
  'repetition',
  'nonverbal_share',
  'task_success',
  'friend_first_mention',
  'deal',
  'price',
  'judged_deal',
  'judged_price',
  'utility',
  'judge',
  'judge_visibility',
  'judge_error',
  ...DIMENSION_NAMES,
] as const;

/** The columns that describe a seat of an episode (identifiers, models, rule metrics), shared by the seats table. */
export const SEAT_COLUMNS = CSV_COLUMNS.slice(0, CSV_COLUMNS.indexOf('utility') + 1) as readonly SeatColumn[];
type SeatColumn = (typeof CSV_COLUMNS)[number];

const INT_COLUMNS: ReadonlySet<string> = new Set(['repeat', 'episode_moves', 'turns', 'error_turns', 'speech_turns', 'words']);
const DOUBLE_COLUMNS: ReadonlySet<string> = new Set(['words_per_turn', 'repetition', 'nonverbal_share', 'friend_first_mention', 'price', 'judged_price', 'utility', ...DIMENSION_NAMES]);
const BOOL_COLUMNS: ReadonlySet<string> = new Set(['task_success', 'deal', 'judged_deal']);

/** The type of one of CSV_COLUMNS (Parquet keeps it). */
export function csvColumnType(name: string): ColumnType {
  return INT_COLUMNS.has(name) ? 'int' : DOUBLE_COLUMNS.has(name) ? 'double' : BOOL_COLUMNS.has(name) ? 'bool' : 'string';
}

/** Every episode of the runs with its metrics (the rows of the per-seat tables come from these). */
export function runsEpisodeMetrics(runs: readonly RunDir[]): { record: RunDir['episodes'][number]['record']; m: EpisodeMetrics }[] {
  return runs.flatMap((run) => {
    const mutualFriendsSuccess = runProtocol(run).scoring.mutualFriendsSuccess;
    return run.episodes.map(({ record }) => ({ record, m: episodeMetrics(record, run.scenarios.get(record.scenarioId), { mutualFriendsSuccess }) }));
  });
}

/** A seat's identifying and rule-metric cells, by column name. */
export function seatCells(record: RunDir['episodes'][number]['record'], m: EpisodeMetrics, seat: RunDir['episodes'][number]['record']['seats'][number]): Record<SeatColumn, Cell> {
  const sm = m.seats.find((s) => s.seat === seat.seat)!;
  const judged = m.judge?.seats[seat.seat];
  const row: Record<SeatColumn, Cell> = {
    run_id: m.runId,
    episode_id: m.episodeId,
    mode: m.mode,
    scenario_id: m.scenarioId,
    env_id: m.envId,
    pair_id: m.pairId,
    repeat: m.repeat,
    kind: m.kind,
    subsets: m.subsets.join(';'),
    status: m.status,
    termination: m.termination,
    models: m.models,
    seat: seat.seat,
    character: seat.character,
    policy: seat.policy,
    model: seat.model ?? '',
    episode_moves: m.moves,
    turns: sm.turns,
    error_turns: sm.errorTurns,
    speech_turns: sm.speechTurns,
    words: sm.words,
    words_per_turn: sm.wordsPerTurn,
    repetition: sm.repetition,
    nonverbal_share: sm.nonverbalShare,
    task_success: m.success,
    friend_first_mention: m.mutualFriends?.firstMentionPosition ?? null,
    deal: m.craigslist?.deal ?? null,
    price: m.craigslist?.price ?? null,
    judged_deal: m.craigslist?.judgedDeal ?? null,
    judged_price: m.craigslist?.judgedPrice ?? null,
    utility: m.craigslist?.utility[seat.seat] ?? null,
    judge: m.judge?.info.spec ?? null,
    judge_visibility: m.judge?.info.visibility ?? null,
    judge_error: judged && !judged.ok ? `${judged.error.code}: ${judged.error.message}` : null,
    believability: null,
    relationship: null,
    knowledge: null,
    secret: null,
    social_rules: null,
    financial_and_material_benefits: null,
    goal: null,
  };
  // The seven columns are SOTOPIA-EVAL's: another rubric's `goal` is not written into them.
  if (judged?.ok && isSotopia(m.judge?.info.rubric)) for (const d of DIMENSION_NAMES) row[d] = judged.scores[d] ?? null;
  return row;
}

/**
 * One row per episode and seat: identifiers, mode, models, the seat's rule metrics, the episode's task
 * metrics, the seat's seven SOTOPIA-EVAL scores (empty when not judged; `judge_error` when judging failed), then a
 * `<rubric>.<dimension>` column for every dimension of any other rubric judged in these runs (its latest full-background judgement).
 */
export function episodesTable(runs: readonly RunDir[]): Table {
  const all = runsEpisodeMetrics(runs);
  const extra = rubricColumns(all.map((x) => x.m));
  const columns = [...CSV_COLUMNS.map((name) => ({ name, type: csvColumnType(name) })), ...extra.map((c) => ({ name: c.column, type: 'double' as const }))];
  const rows: Cell[][] = [];
  for (const { record, m } of all) {
    for (const seat of record.seats) {
      const row = seatCells(record, m, seat);
      rows.push([...CSV_COLUMNS.map((c) => row[c]), ...extra.map((c) => rubricScore(m, c, seat.seat))]);
    }
  }
  return { columns, rows };
}

/** The per-episode-and-seat table as CSV (`parley export --format csv`). */
export function exportCsv(runs: readonly RunDir[]): string {
  return tableCsv(episodesTable(runs));
}

/** A column for one dimension of a rubric other than SOTOPIA-EVAL: `<rubric>.<dimension>`. */
interface RubricColumn {
  column: string;
  rubric: string;
  hash: string;
  dimension: string;
}

/** The extra columns: every dimension of every other rubric judged in these runs, in first-seen order. */
function rubricColumns(all: readonly EpisodeMetrics[]): RubricColumn[] {
  const out = new Map<string, RubricColumn>();
  for (const m of all) {
    for (const j of m.otherRubrics) {
      const r = j.info.rubric!;
      for (const d of r.dimensions) {
        const column = `${r.name}.${d.name}`;
        if (!out.has(column)) out.set(column, { column, rubric: r.name, hash: r.hash, dimension: d.name });
      }
    }
  }
  return [...out.values()];
}

/** A seat's score on a rubric column: from the episode's judgement on that rubric (its latest full-background one). */
function rubricScore(m: EpisodeMetrics, c: RubricColumn, seat: string): number | null {
  const j = m.otherRubrics.find((x) => x.info.rubric?.name === c.rubric && x.info.rubric.hash === c.hash);
  const s = j?.seats[seat];
  return s?.ok ? (s.scores[c.dimension] ?? null) : null;
}
