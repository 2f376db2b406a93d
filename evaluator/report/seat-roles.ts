import { mainJudgesLine } from './table-judges.js';
import type { Scenario } from '../../scenarios/model.js';
import type { EpisodeMetrics } from '../metrics/episode-metrics.js';
import type { RunDir } from '../run-dir.js';
import { mdCell } from './card.js';
import type { Chart } from './charts.js';
import { barChart, type BarGroup } from './svg.js';

/**
 * A seat's role in its scenario, for tables by role: the task role where the task has one (Craigslist and
 * auction buyer / seller), else the seat's position (`seat 1`, `seat 2`, `seat 3`, …), so a group's seats
 * stay apart and a two-seat study reads as before.
 */
export function seatRole(scenario: Scenario | undefined, seat: string): string {
  const index = scenario?.seats.findIndex((s) => s.seat === seat) ?? -1;
  const task = index >= 0 ? scenario!.seats[index]!.task : null;
  if (task?.kind === 'craigslist' || task?.kind === 'auction') return `${task.kind} ${task.role}`;
  return index >= 0 ? `seat ${index + 1}` : seat;
}

const mean = (xs: readonly number[]): string => (xs.length ? `${(xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(2)} (${xs.length})` : '—');

/**
 * The judge's scores by seat role (issue 23: a row per mode × role): each scored seat of each ok episode
 * counts once, per dimension the mean and the number of seats. Judgement errors are not scores.
 */
export function seatRolesMarkdown(runs: readonly RunDir[], metrics: readonly EpisodeMetrics[]): string[] {
  const byId = new Map(metrics.map((m) => [`${m.runId}\u0000${m.episodeId}`, m]));
  const cells = new Map<string, { mode: string; role: string; scores: Map<string, number[]> }>();
  const dims = new Set<string>();
  for (const run of runs) {
    for (const { record } of run.episodes) {
      const m = byId.get(`${record.runId}\u0000${record.episodeId}`);
      if (!m?.judge || m.status !== 'ok') continue;
      const scenario = run.scenarios.get(record.scenarioId);
      for (const [seat, result] of Object.entries(m.judge.seats)) {
        if (!result.ok) continue;
        const role = seatRole(scenario, seat);
        const key = `${m.mode}\u0000${role}`;
        const cell = cells.get(key) ?? { mode: m.mode, role, scores: new Map() };
        for (const [dim, score] of Object.entries(result.scores)) {
          dims.add(dim);
          cell.scores.set(dim, [...(cell.scores.get(dim) ?? []), score]);
        }
        cells.set(key, cell);
      }
    }
  }
  if (cells.size === 0) return [];
  const order = ['script', 'agents', 'mindreaders'];
  const rows = [...cells.values()].sort((a, b) => order.indexOf(a.mode) - order.indexOf(b.mode) || a.role.localeCompare(b.role, 'en', { numeric: true }));
  const columns = [...dims];
  return [
    '## Judge scores by seat role',
    '',
    'Every scored seat on its own, by its role in the scenario (a task role, else its position in the turn order): `mean (seats)`. In a group each of the three or more seats has a row.',
    '',
    mainJudgesLine(metrics),
    '',
    `| mode | seat role | ${columns.map(mdCell).join(' | ')} |`,
    `|---|---|${columns.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${mdCell(r.mode)} | ${mdCell(r.role)} | ${columns.map((d) => mean(r.scores.get(d) ?? [])).join(' | ')} |`),
    '',
  ];
}

/** The group tasks' own metrics by mode: auctions sold, mean price and who won; splits passed and mean shares by seat role. */
export function groupTasksMarkdown(runs: readonly RunDir[], metrics: readonly EpisodeMetrics[]): string[] {
  const ok = metrics.filter((m) => m.status === 'ok' && (m.auction || m.split));
  if (!ok.length) return [];
  const scenarioOf = (m: EpisodeMetrics) => runs.find((r) => r.episodes.some((e) => e.record.runId === m.runId && e.record.episodeId === m.episodeId))?.scenarios.get(m.scenarioId);
  const lines = ['## Group tasks', '', '| mode | task | episodes | result |', '|---|---|---|---|'];
  for (const mode of ['script', 'agents', 'mindreaders']) {
    const auctions = ok.filter((m) => m.mode === mode && m.auction);
    if (auctions.length) {
      const sold = auctions.filter((m) => m.auction!.sold);
      const winners = sold.map((m) => seatRole(scenarioOf(m), m.auction!.winner ?? '')).join(', ');
      lines.push(`| ${mode} | auction | ${auctions.length} | sold ${sold.length}; mean price ${mean(sold.map((m) => m.auction!.price!))}; mean price / winner's valuation ${mean(sold.flatMap((m) => (m.auction!.priceOverValuation === null ? [] : [m.auction!.priceOverValuation])))}; winners: ${mdCell(winners || '—')} |`);
    }
    const splits = ok.filter((m) => m.mode === mode && m.split);
    if (splits.length) {
      const passed = splits.filter((m) => m.split!.passed);
      const shares = new Map<string, number[]>();
      for (const m of passed) for (const [seat, share] of Object.entries(m.split!.shares ?? {})) {
        const role = seatRole(scenarioOf(m), seat);
        shares.set(role, [...(shares.get(role) ?? []), share]);
      }
      const byRole = [...shares].map(([role, xs]) => `${role} ${mean(xs)}`).join('; ');
      lines.push(`| ${mode} | split | ${splits.length} | passed ${passed.length}; mean shares: ${mdCell(byRole || '—')} |`);
    }
  }
  lines.push('');
  return lines;
}

/**
 * The judge's goal score by seat role and mode, as a chart — only for runs with a group (a scenario of
 * three or more seats), so a pair study's report keeps its charts. Null when nothing was scored.
 */
export function seatRoleChart(runs: readonly RunDir[], metrics: readonly EpisodeMetrics[]): Chart | null {
  if (!runs.some((r) => [...r.scenarios.values()].some((s) => s.seats.length > 2))) return null;
  const byId = new Map(metrics.map((m) => [`${m.runId}\u0000${m.episodeId}`, m]));
  const goals = new Map<string, Map<string, number[]>>(); // role → mode → goal scores
  for (const run of runs) {
    for (const { record } of run.episodes) {
      const m = byId.get(`${record.runId}\u0000${record.episodeId}`);
      if (!m?.judge || m.status !== 'ok') continue;
      for (const [seat, result] of Object.entries(m.judge.seats)) {
        const goal = result.ok ? result.scores['goal'] : undefined;
        if (goal === undefined) continue;
        const role = seatRole(run.scenarios.get(record.scenarioId), seat);
        const modes = goals.get(role) ?? goals.set(role, new Map()).get(role)!;
        modes.set(m.mode, [...(modes.get(m.mode) ?? []), goal]);
      }
    }
  }
  if (goals.size === 0) return null;
  const order = ['script', 'agents', 'mindreaders'];
  const series = order.filter((mode) => [...goals.values()].some((g) => g.has(mode)));
  const groups: BarGroup[] = [...goals.keys()].sort((a, b) => a.localeCompare(b, 'en', { numeric: true })).map((role) => ({
    label: role,
    bars: series.flatMap((mode) => {
      const xs = goals.get(role)!.get(mode);
      return xs?.length ? [{ series: mode, value: xs.reduce((a, b) => a + b, 0) / xs.length, n: xs.length }] : [];
    }),
  }));
  const title = 'Goal by seat role and mode';
  return {
    file: 'goal-by-seat-role.svg',
    title,
    caption: 'Judge goal score [0, 10] of each seat on its own, by its role in the scenario (a task role, else its position in the turn order).',
    svg: barChart({ title, yLabel: 'goal (0–10)', groups, series, yMin: 0, yMax: 10, footnote: 'bars: mean over seats; numbers under bars: seats' }),
  };
}
