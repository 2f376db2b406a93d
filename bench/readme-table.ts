/**
 * The README's performance table, generated from bench/results.json (never typed by hand, so the README
 * says what was measured): one row per latency case. `npm run bench:readme` rewrites it between the
 * markers; bench/readme-table.test.ts fails when the README and results.json disagree.
 */

export const TABLE_START = '<!-- bench-table: generated from bench/results.json by `npm run bench:readme`; do not edit -->';
export const TABLE_END = '<!-- /bench-table -->';

/** The parts of a latency entry the table shows (older files lack the newer fields: shown as —). */
interface LatencyRow {
  modelDelayMs: number;
  seatsPerProcess: number;
  agentProcesses: number;
  firstEpisodeMs?: number;
  poolFullMs?: number | null;
  window: { efficiency: number; cpuMsPerTurn: { agents: number } };
  wholeRun: { efficiency: number; cpuMsPerTurn?: { agents: number } };
  rssMB: { agentMaxPerProcess?: number; agentMaxPrivatePerProcess?: number };
  loadAverage?: number[];
  measuredAt?: string;
}

export interface ResultsForTable {
  date: string;
  machine: { cores: number; cpu: string; node: string };
  latency: LatencyRow[];
}

const show = (x: number | null | undefined, unit = ''): string => (x === null || x === undefined ? '—' : `${x}${unit}`);

/** The table (Markdown), with the line saying where and when it was measured. */
export function renderPerformanceTable(r: ResultsForTable): string {
  const lines = [
    `Latency case of \`npm run bench\` (50 LLM episodes of 20 turns in flight, every seat an \`openai:\` policy on a fake server answering after the model delay; ${r.machine.cores} cores, ${r.machine.cpu}, Node ${r.machine.node}, ${(r.latency[0]?.measuredAt ?? r.date).slice(0, 10)}):`,
    '',
    '| model delay | seats per process | agent processes | agent CPU per turn, warm | agent CPU per turn, whole run | agent process peak RSS | its private memory | first episode after | pool full after | efficiency, steady | efficiency, whole run | load average |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const l of r.latency) {
    lines.push(
      `| ${l.modelDelayMs} ms | ${l.seatsPerProcess} | ${l.agentProcesses} | ${show(l.window.cpuMsPerTurn.agents, ' ms')} | ${show(l.wholeRun.cpuMsPerTurn?.agents, ' ms')} | ${show(l.rssMB.agentMaxPerProcess, ' MB')} | ${show(l.rssMB.agentMaxPrivatePerProcess, ' MB')} | ${show(l.firstEpisodeMs, ' ms')} | ${show(l.poolFullMs, ' ms')} | ${l.window.efficiency} | ${l.wholeRun.efficiency} | ${l.loadAverage?.[0] ?? '—'} |`,
    );
  }
  return lines.join('\n');
}

/** README text with its table replaced by `table`; throws when the markers are missing. */
export function withPerformanceTable(readme: string, table: string): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`README.md has no performance table markers (${TABLE_START} … ${TABLE_END})`);
  return `${readme.slice(0, start + TABLE_START.length)}\n${table}\n${readme.slice(end)}`;
}

/** The table currently in the README (between the markers), or null. */
export function tableInReadme(readme: string): string | null {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) return null;
  return readme.slice(start + TABLE_START.length, end).trim();
}
