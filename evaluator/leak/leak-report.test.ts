import { describe, expect, it } from 'vitest';
import { PAPER_PROTOCOL } from '../../simulation/index.js';
import type { EpisodeMetrics } from '../metrics/episode-metrics.js';
import type { RunDir } from '../run-dir.js';
import { leakCaveats } from './leak-report.js';

const run = (leak: string[] | null, protocol = 'paper'): RunDir =>
  ({ dir: '/x', run: leak === null ? null : { protocol: { ...PAPER_PROTOCOL, name: protocol, leakJudgeOnly: leak }, config: {} }, scenarios: new Map(), episodes: [], tornBytes: 0 }) as unknown as RunDir;

const mf = (scenarioId: string, judge = 'openai:gpt-4-0613', view = 'paper') =>
  ({ kind: 'mutual_friends', status: 'ok', mode: 'agents', scenarioId, pairId: 'p1', judge: { info: { spec: judge, view, promptVersion: 'v' }, seats: {} } }) as unknown as EpisodeMetrics;

describe('what makes two runs less than a clean leak comparison', () => {
  it('says nothing for examples/paper.yaml against paper-corrected.yaml on the same instances and judge', () => {
    expect(leakCaveats(run(['script', 'mindreaders']), run([]), [mf('s1'), mf('s2')], [mf('s2'), mf('s1')])).toEqual({ notALeakComparison: [], other: [] });
  });

  it('names a mode the leaky run did not leak to, or the corrected run did', () => {
    const c = leakCaveats(run(['script']), run(['script']), [], []);
    expect(c.notALeakComparison).toEqual([
      { mode: 'script', why: 'the corrected run also sent the answer to the script writer (leakJudgeOnly: [script]).' },
      { mode: 'mindreaders', why: 'the leaky run did not send the answer to the mindreaders (leakJudgeOnly: [script]).' },
    ]);
  });

  it('warns on different instances, judges or protocols, and on a run that does not record its leak setting', () => {
    const c = leakCaveats(run(null), run([]), [mf('s1'), mf('s2')], [mf('s1', 'openai:gpt-4o', 'parley')]);
    expect(c.other).toEqual([
      'the leaky run does not record which generators got the judge-only text (run.json has no protocol).',
      'the two runs follow different protocols, so MutualFriends success is read by different rules.',
      'the two runs were judged differently (openai:gpt-4-0613 (paper view, prompt v) against openai:gpt-4o (parley view, prompt v)): goal differences mix the leak with the judge.',
      'the two runs cover different MutualFriends instances (2 in the leaky run, 1 in the corrected one, 1 in both): part of any difference is the instances.',
    ]);
  });
});
