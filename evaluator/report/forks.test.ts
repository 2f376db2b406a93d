import { describe, expect, it } from 'vitest';
import type { EpisodeRecord } from '../../protocol/index.js';
import type { RunDir } from '../run-dir.js';
import { episode, mfScenario } from '../testing/fixtures.js';
import { compareForks } from './forks.js';
import { forkCharts, forksMarkdown } from './forks-markdown.js';

const scenario = mfScenario();
const runDir = (dir: string, runId: string, records: EpisodeRecord[], config: Record<string, unknown> = {}): RunDir => ({
  dir,
  run: { runId, config } as unknown as RunDir['run'],
  scenarios: new Map([[scenario.id, scenario]]),
  episodes: records.map((record, i) => ({ record, raw: {}, line: i + 1 })),
  tornBytes: 0,
});
const success = (ok: boolean) => ({ kind: 'mutual_friends' as const, selections: { a: null, b: null }, answer: 'Jane Doe', success: ok });

const parent = episode({ scenario, runId: 'R', moves: [['a', 'speak', 'hi'], ['b', 'speak', 'hi'], ['a', 'speak', 'hi']], outcome: success(false) });
const fork = (at: number, ok: boolean, i: number): EpisodeRecord => ({
  ...episode({ scenario, runId: 'F', repeat: i, moves: [['a', 'speak', 'hi'], ['b', 'speak', 'hi'], ['a', 'speak', 'x'], ['b', 'speak', 'y']], outcome: success(ok) }),
  episodeId: `f-${at}-${i}`,
  fork: { parentRun: 'R', parentEpisode: parent.episodeId, at },
});

describe('compareForks (parley report --parent)', () => {
  const forks = runDir('F', 'F', [fork(1, true, 0), fork(1, true, 1), fork(2, false, 0), fork(2, true, 1)], { agents: [{ spec: 'bot' }, { spec: 'openai:gpt-4o' }], fork: { reveal: ['b.goal:a'] } });
  const parents = runDir('R', 'R', [parent], { agents: [{ spec: 'bot' }] });

  it('per fork turn: the forks with a CI, the parent episode, and the effect', () => {
    const c = compareForks(forks, parents);
    if (!c.ok) throw new Error(c.message);
    expect(c.comparison.rows.map((r) => [r.at, r.episodes, r.failed])).toEqual([[1, 2, 0], [2, 2, 0]]);
    const at1 = c.comparison.rows[0]!.cells.success!;
    expect(at1).toMatchObject({ forks: { n: 2, mean: 1 }, parent: 0, effect: { n: 2, mean: 1 } });
    const at2 = c.comparison.rows[1]!.cells;
    expect(at2.success).toMatchObject({ forks: { mean: 0.5, lo: 0, hi: 1 }, parent: 0, effect: { mean: 0.5 } });
    expect(at2.turns).toMatchObject({ forks: { mean: 4 }, parent: 3, effect: { mean: 1 } });
    expect(c.comparison.changes).toEqual(['b: bot → openai:gpt-4o', 'reveal at t: b.goal:a']);
    const md = forksMarkdown(c.comparison).join('\n');
    expect(md).toContain('| 2 | 2 | 0 | success | 0.50 [0.00, 1.00] (2) | 0.00 | +0.50 [0.00, +1.00] (2) |');
    expect(forkCharts(c.comparison).map((x) => x.file)).toEqual(['fork-effect-success.svg', 'fork-effect-turns.svg']);
  });

  it('refuses a run without forks, forks of another run, and a parent that lacks the episode', () => {
    expect(compareForks(parents, parents)).toMatchObject({ ok: false, message: expect.stringContaining('holds no forked episode') });
    expect(compareForks(forks, runDir('X', 'X', [parent]))).toMatchObject({ ok: false, message: expect.stringContaining('come from run R, not from X') });
    expect(compareForks(forks, runDir('R', 'R', []))).toMatchObject({ ok: false, message: expect.stringContaining('has no episode') });
  });
});
