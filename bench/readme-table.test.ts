import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderPerformanceTable, tableInReadme, withPerformanceTable, type ResultsForTable } from './readme-table.js';

const read = (rel: string) => readFileSync(fileURLToPath(new URL(rel, import.meta.url)), 'utf8');

describe('README performance table', () => {
  it('is the rendering of bench/results.json (run `npm run bench:readme` after a bench)', () => {
    const results = JSON.parse(read('./results.json')) as ResultsForTable;
    expect(results.latency.length).toBeGreaterThan(0);
    expect(tableInReadme(read('../README.md'))).toBe(renderPerformanceTable(results).trim());
  });

  it('shows each latency case with its new figures, and — where an older file lacks one', () => {
    const base = { modelDelayMs: 200, seatsPerProcess: 1, agentProcesses: 108, window: { efficiency: 0.8, cpuMsPerTurn: { agents: 2.1 } }, wholeRun: { efficiency: 0.7 }, rssMB: {} };
    const table = renderPerformanceTable({
      date: '2026-11-27T00:00:00Z',
      machine: { cores: 2, cpu: 'X', node: 'v20' },
      latency: [base, { ...base, seatsPerProcess: 10, firstEpisodeMs: 312, poolFullMs: 4000, wholeRun: { efficiency: 0.96, cpuMsPerTurn: { agents: 1.2 } }, rssMB: { agentMaxPerProcess: 66.5, agentMaxPrivatePerProcess: 30.1 }, loadAverage: [0.4, 1, 2] }],
    });
    const rows = table.split('\n').filter((l) => /^\| \d/.test(l));
    expect(rows).toEqual([
      '| 200 ms | 1 | 108 | 2.1 ms | — | — | — | — | — | 0.8 | 0.7 | — |',
      '| 200 ms | 10 | 108 | 2.1 ms | 1.2 ms | 66.5 MB | 30.1 MB | 312 ms | 4000 ms | 0.8 | 0.96 | 0.4 |',
    ]);
  });

  it('replaces only what lies between its markers, and refuses a README without them', () => {
    const readme = read('../README.md');
    const replaced = withPerformanceTable(readme, 'NEW');
    expect(tableInReadme(replaced)).toBe('NEW');
    expect(replaced.length - 'NEW'.length).toBe(readme.length - (tableInReadme(readme)?.length ?? 0));
    expect(() => withPerformanceTable('no markers', 'x')).toThrow(/markers/);
  });
});
