import { describe, expect, it } from 'vitest';
import type { RunDir } from '../run-dir.js';
import { validReply } from '../testing/fake-judge.js';
import { clScenario, episode, mfScenario, writeRunDir } from '../testing/fixtures.js';
import { CSV_COLUMNS, csvField, exportCsv } from './csv.js';
import { exportSotopia } from './sotopia.js';
import { tempRuns } from '../testing/temp-runs.js';
import { parseCsv } from '../testing/parse-csv.js';

const runs = tempRuns();

async function fixture(): Promise<RunDir> {
  const mf = mfScenario();
  const cl = clScenario();
  const reply = validReply(['a', 'b'], { score: (d, seat) => (d === 'goal' ? (seat === 'a' ? 7 : 4) : 0) }) as { evaluations: Record<string, unknown> };
  const evaluation = {
    v: 1,
    judge: {
      judge: { spec: 'openai:gpt-4', visibility: 'full', temperature: 0, promptVersion: 'p' },
      evaluatedAt: '2024-01-01T00:00:00.000Z',
      seats: { a: { ok: true, scores: reply.evaluations['a'] }, b: { ok: false, error: { code: 'judge/invalid_scores', message: 'goal: score above 10', attempts: 2 } } },
      calls: 2,
      usage: { prompt: 1, completion: 1 },
      latencyMs: 1,
    },
  };
  const dir = await writeRunDir(
    [mf, cl],
    [
      episode({ scenario: mf, mode: 'agents', models: ['openai:gpt-4', 'mistral:open-mixtral-8x7b'], moves: [['a', 'speak', 'Hi, "Ben", do you know Jane Doe,\nby chance?'], ['b', 'speak', 'Yes']], evaluation }),
      episode({ scenario: cl, mode: 'script', moves: [['a', 'action', 'offer $80'], ['b', 'action', 'accept']], outcome: { kind: 'craigslist', deal: true, price: 80, acceptedBy: 'b', success: true } }),
    ],
  );
  return runs.load(dir);
}

describe('CSV export', () => {
  it('quotes fields that need it', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(' edge')).toBe('" edge"');
    expect(csvField(null)).toBe('');
    expect(csvField(1 / 3)).toBe('0.333333');
  });

  it('writes one row per episode and seat with mode, scenario, models, turns, words per turn and every score present', async () => {
    const rows = parseCsv(exportCsv([await fixture()]));
    const [header, ...body] = rows;
    expect(header).toEqual([...CSV_COLUMNS]);
    for (const col of ['mode', 'scenario_id', 'models', 'model', 'turns', 'words_per_turn', 'believability', 'relationship', 'knowledge', 'secret', 'social_rules', 'financial_and_material_benefits', 'goal']) expect(header).toContain(col);
    expect(body).toHaveLength(4);
    const get = (r: string[], c: string) => r[header!.indexOf(c)];
    const [a, b, sa] = body as [string[], string[], string[]];
    expect(get(a, 'mode')).toBe('agents');
    expect(get(a, 'scenario_id')).toBe('mf-1');
    expect(get(a, 'models')).toBe('openai:gpt-4 × mistral:open-mixtral-8x7b');
    expect(get(b, 'model')).toBe('');
    expect(get(b, 'policy')).toBe('mistral:open-mixtral-8x7b');
    expect(get(a, 'turns')).toBe('1');
    expect(get(a, 'words_per_turn')).toBe('9');
    expect(get(a, 'goal')).toBe('7');
    expect(get(a, 'secret')).toBe('0');
    expect(get(a, 'friend_first_mention')).toBe('0');
    // seat b's judgement failed: no scores, the error instead
    expect(get(b, 'goal')).toBe('');
    expect(get(b, 'judge_error')).toBe('judge/invalid_scores: goal: score above 10');
    expect(get(sa, 'mode')).toBe('script');
    expect(get(sa, 'deal')).toBe('true');
    expect(get(sa, 'price')).toBe('80');
    expect(get(sa, 'utility')).toBe('0.5');
    expect(get(sa, 'words_per_turn')).toBe('');
    expect(get(sa, 'goal')).toBe('');
  });
});

describe('SOTOPIA export', () => {
  it('writes EpisodeLog fields and SOTOPIA\'s JSONL export fields', async () => {
    const lines = exportSotopia([await fixture()]).trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    const [mf, cl] = lines;
    for (const k of ['environment', 'agents', 'tag', 'models', 'messages', 'reasoning', 'rewards', 'rewards_prompt', 'episode_id', 'scenario', 'codename', 'agents_background', 'social_goals', 'social_interactions']) expect(mf).toHaveProperty(k);
    expect(mf.agents).toEqual(['c-ann', 'c-ben']);
    expect(mf.models).toEqual(['openai:gpt-4', 'openai:gpt-4', 'mistral:open-mixtral-8x7b']);
    expect(mf.messages[0][0][0]).toBe('Environment');
    expect(mf.messages[1][0]).toEqual(['Ann', 'Environment', 'said: "Hi, \\"Ben\\", do you know Jane Doe,\nby chance?"'.replace(/\\"/g, '"')]);
    expect(mf.messages[1][1]).toEqual(['Ben', 'Environment', 'did nothing']);
    // scored seat: [overall, dims + overall_score]; failed seat: null, never a score
    expect(mf.rewards[0][0]).toBeCloseTo(1, 10);
    expect(mf.rewards[0][1]).toMatchObject({ goal: 7, secret: 0, overall_score: 1 });
    expect(mf.rewards[1]).toBeNull();
    expect(mf.reasoning).toContain('evaluation error judge/invalid_scores');
    expect(mf.social_goals).toEqual({ Ann: 'Find the mutual friend', Ben: 'Find the mutual friend' });
    // judge-only text is not put in any agent's background message
    expect(JSON.stringify(mf.messages)).not.toContain('The mutual friend is Jane Doe.');
    expect(cl.tag.split('_')).toContain('script');
    expect(cl.social_interactions).toContain('Cat [action] offer $80');
  });
});
