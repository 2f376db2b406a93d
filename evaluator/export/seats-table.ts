import { judgeVariants, readEvaluation, type EpisodeJudgement } from '../evaluation.js';
import { JUDGE_VIEW_FACTS } from '../../simulation/index.js';
import { SOTOPIA_RUBRIC } from '../rubric/builtin.js';
import type { RunDir } from '../run-dir.js';
import { csvColumnType, runsEpisodeMetrics, seatCells, SEAT_COLUMNS } from './csv.js';
import type { Cell, Column, Table } from './table.js';

/**
 * `parley export --table seats`: one row per episode and seat, with every judgement on it side by side —
 * a score column per judge × dimension (`sotopia.goal[openai:gpt-4]`), the panel's mean per dimension
 * (`sotopia.goal[panel mean]`), the variants of the same judge (`[openai:gpt-4 blind]`, `[… paper view]`),
 * and each judge's reasoning in a text column of its own (`sotopia.goal.reasoning[openai:gpt-4]`), so judge
 * agreement can be analysed without parsing episodes.jsonl. A panel is what the report calls one: the
 * judges of one rubric with the same visibility and view; its mean is over the judges that scored the seat.
 */

/** Who judged, as a column suffix: the spec, then what makes it a variant (blind, the paper's view). */
function judgeLabel(j: EpisodeJudgement['judge']): string {
  return [j.spec, ...panelTags(j)].join(' ');
}

/** What sets a panel apart from the full-background one in the run's own view. */
function panelTags(j: EpisodeJudgement['judge']): string[] {
  return [...(j.visibility === 'blind' ? ['blind'] : []), ...(j.view && JUDGE_VIEW_FACTS[j.view].tag ? [JUDGE_VIEW_FACTS[j.view].tag!] : [])];
}

interface ScoreColumn {
  rubricKey: string;
  dimension: string;
  /** The judge label, or null for a panel-mean column. */
  judge: string | null;
  panel: string;
  reasoning: boolean;
}

/** The rubric's name in column names; `name@hash` when two rubrics of one name were judged. */
function rubricNames(keys: Iterable<[string, { name: string; hash: string }]>): Map<string, string> {
  const byName = new Map<string, number>();
  const all = [...keys];
  for (const [, r] of all) byName.set(r.name, (byName.get(r.name) ?? 0) + 1);
  return new Map(all.map(([k, r]) => [k, (byName.get(r.name) ?? 0) > 1 ? `${r.name}@${r.hash.slice(0, 8)}` : r.name]));
}

/** The seats table of the runs. */
export function seatsTable(runs: readonly RunDir[]): Table {
  const all = runsEpisodeMetrics(runs).map((x) => ({ ...x, judgements: [...judgeVariants(readEvaluation(x.record.evaluation)).values()] }));
  // Columns, in first-seen order: per rubric and dimension, each judge's score, the panel means, then the reasonings.
  const rubrics = new Map<string, { name: string; hash: string; dimensions: string[] }>();
  const judgesOf = new Map<string, Map<string, string>>(); // rubric key → judge label → panel
  for (const { judgements } of all) {
    for (const j of judgements) {
      const r = j.judge.rubric ?? { name: SOTOPIA_RUBRIC.name, hash: SOTOPIA_RUBRIC.hash, dimensions: SOTOPIA_RUBRIC.dimensions };
      const key = `${r.name}@${r.hash}`;
      if (!rubrics.has(key)) rubrics.set(key, { name: r.name, hash: r.hash, dimensions: r.dimensions.map((d) => d.name) });
      let judges = judgesOf.get(key);
      if (!judges) judgesOf.set(key, (judges = new Map()));
      judges.set(judgeLabel(j.judge), panelTags(j.judge).join(' '));
    }
  }
  const names = rubricNames([...rubrics].map(([k, r]) => [k, r]));
  const scoreColumns: ScoreColumn[] = [];
  for (const [key, r] of rubrics) {
    const judges = [...judgesOf.get(key)!].sort(([a], [b]) => a.localeCompare(b));
    const panels = [...new Set(judges.map(([, p]) => p))].sort();
    for (const dimension of r.dimensions) {
      for (const [judge, panel] of judges) scoreColumns.push({ rubricKey: key, dimension, judge, panel, reasoning: false });
      for (const panel of panels) scoreColumns.push({ rubricKey: key, dimension, judge: null, panel, reasoning: false });
    }
    for (const dimension of r.dimensions) for (const [judge, panel] of judges) scoreColumns.push({ rubricKey: key, dimension, judge, panel, reasoning: true });
  }
  const columnName = (c: ScoreColumn) => `${names.get(c.rubricKey)}.${c.dimension}${c.reasoning ? '.reasoning' : ''}[${c.judge ?? ['panel mean', c.panel].filter(Boolean).join(' ')}]`;
  const columns: Column[] = [
    ...SEAT_COLUMNS.map((name) => ({ name, type: csvColumnType(name) })),
    { name: 'judge_errors', type: 'string' },
    ...scoreColumns.map((c) => ({ name: columnName(c), type: c.reasoning ? ('string' as const) : ('double' as const) })),
  ];
  const rows: Cell[][] = [];
  for (const { record, m, judgements } of all) {
    for (const seat of record.seats) {
      const base = seatCells(record, m, seat);
      // Per rubric key and judge label: the seat's judgement.
      const mine = new Map<string, EpisodeJudgement['seats'][string]>();
      const errors: string[] = [];
      for (const j of judgements) {
        const r = j.judge.rubric ?? SOTOPIA_RUBRIC;
        const s = j.seats[seat.seat];
        if (!s) continue;
        mine.set(`${r.name}@${r.hash}\u0000${judgeLabel(j.judge)}`, s);
        if (!s.ok) errors.push(`${judgeLabel(j.judge)} ${r.name}: ${s.error.code}: ${s.error.message}`);
      }
      const cells = scoreColumns.map((c): Cell => {
        if (c.judge !== null) {
          const s = mine.get(`${c.rubricKey}\u0000${c.judge}`);
          if (!s?.ok) return null;
          const d = s.scores[c.dimension];
          return d === undefined ? null : c.reasoning ? d.reasoning : d.score;
        }
        const scores = [...judgesOf.get(c.rubricKey)!]
          .filter(([, panel]) => panel === c.panel)
          .map(([judge]) => mine.get(`${c.rubricKey}\u0000${judge}`))
          .flatMap((s) => (s?.ok && s.scores[c.dimension] ? [s.scores[c.dimension]!.score] : []));
        return scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : null;
      });
      rows.push([...SEAT_COLUMNS.map((c) => base[c]), errors.length ? errors.join('; ') : null, ...cells]);
    }
  }
  return { columns, rows };
}
