import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ReceivedRequest } from '../testkit/fake-llm-server.js';
import { fakeLlmSuite } from './helpers/fake-llm-suite.js';
import { cleanEnv, parleyCli, readEpisodes } from './llm-run-helpers.js';

/**
 * `parley serve --judge SPEC` (issue 40): each episode is judged as it ends with exactly the requests
 * `parley eval DIR --judge SPEC` sends for it, the judgement is stored on the record as eval stores it,
 * and each seat's `episode.end` carries its own scores and no other seat's. A judge that cannot take
 * effect is refused before anything is written. Real serve and bot agent processes, the real `openai`
 * SDK against the fake server.
 */
describe('parley serve --judge', () => {
  const suite = fakeLlmSuite('serve-judge');
  const { tmp } = suite;
  const judgeBodies = (from: number) => suite.server.requests.slice(from).filter((r: ReceivedRequest) => r.body.model === 'gpt-4').map((r) => JSON.stringify(r.body)).sort();

  it('judges each episode as it ends with parley eval\'s requests; each seat is sent its own scores', async () => {
    const out = join(tmp.path, 'judged');
    const served = await parleyCli(['serve', '--scenarios', 'builtin', '--modes', 'agents', '--limit', '2', '--agent1', 'bot', '--agent2', 'bot', '--max-turns', '4', '--judge', 'openai:gpt-4', '--out', out], cleanEnv(suite.server.env()));
    expect(served.code, served.stderr).toBe(0);
    const records = readEpisodes(out);
    expect(records).toHaveLength(2);
    const servedRequests = judgeBodies(0);
    expect(servedRequests.length).toBeGreaterThanOrEqual(2);

    for (const record of records) {
      const judged = record.evaluation?.judge;
      expect(judged?.judge.spec).toBe('openai:gpt-4');
      expect(Object.keys(record.evaluation?.variants ?? {})).toEqual(['openai:gpt-4 full']);
      for (const seat of ['agent1', 'agent2']) {
        const lines = readFileSync(join(out, 'ledgers', record.episodeId, `${seat}.jsonl`), 'utf8').trim().split('\n');
        const end = JSON.parse(lines.at(-1)!);
        const mine = judged!.seats[seat]!;
        expect(mine.ok).toBe(true);
        const scores = mine.ok ? Object.fromEntries(Object.entries(mine.scores).map(([d, s]) => [d, s.score])) : {};
        expect(end).toMatchObject({ type: 'episode.end', reason: record.termination.reason });
        expect(end.score).toEqual({ task: { kind: 'mutual_friends', success: record.outcome.success }, judge: { ok: true, judge: 'openai:gpt-4', rubric: 'sotopia', scores } });
        // Only its own: no other seat's name anywhere in what it was sent at the end.
        expect(JSON.stringify(end)).not.toContain(seat === 'agent1' ? 'agent2' : 'agent1');
      }
    }

    // `parley eval` on the served run sends the very same judge requests.
    const before = suite.server.requests.length;
    const evaluated = await parleyCli(['eval', out, '--judge', 'openai:gpt-4'], cleanEnv(suite.server.env()));
    expect(evaluated.code, evaluated.stderr).toBe(0);
    expect(judgeBodies(before)).toEqual(servedRequests);
  }, 240_000);

  it('refuses a judge that cannot take effect: one line, exit 2, nothing written', async () => {
    const cases: Array<[string[], NodeJS.ProcessEnv, RegExp]> = [
      [['--judge', 'bot'], cleanEnv(suite.server.env()), /^parley serve: --judge bot: .*not an LLM spec/],
      [['--judge', 'openai:gpt-4'], cleanEnv(), /^parley serve: missing OPENAI_API_KEY for (judge|policy) openai:gpt-4/],
    ];
    for (const [i, [flags, env, message]] of cases.entries()) {
      const out = join(tmp.path, `refused-${i}`);
      const r = await parleyCli(['serve', '--scenarios', 'builtin', '--modes', 'agents', '--limit', '1', '--agent2', 'bot', ...flags, '--out', out], env);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr.trim()).toMatch(message);
      expect(existsSync(out)).toBe(false);
    }
  });
});
