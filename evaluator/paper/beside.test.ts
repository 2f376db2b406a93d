import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunDir } from '../run-dir.js';
import { validReply } from '../testing/fake-judge.js';
import { clScenario, episode, openScenario, writeRunDir } from '../testing/fixtures.js';
import { writeReport } from '../report/report.js';
import { paperNumberFor } from './beside.js';
import { loadPublished, PUBLISHED_FILE } from './published.js';
import { tempRuns } from '../testing/temp-runs.js';

const runs = tempRuns();
const savedEnv = process.env.PARLEY_PAPER_NUMBERS;
afterEach(async () => {
  if (savedEnv === undefined) delete process.env.PARLEY_PAPER_NUMBERS;
  else process.env.PARLEY_PAPER_NUMBERS = savedEnv;
});

function judged(goal: number) {
  const reply = validReply(['a', 'b'], { score: (d) => (d === 'goal' ? goal : 0) }) as { evaluations: Record<string, unknown> };
  return {
    v: 1,
    judge: {
      judge: { spec: 'openai:gpt-4', model: 'gpt-4', visibility: 'full', temperature: 0, promptVersion: 'parley-judge-2' },
      evaluatedAt: '2024-01-01T00:00:00.000Z',
      seats: { a: { ok: true, scores: reply.evaluations['a'] }, b: { ok: true, scores: reply.evaluations['b'] } },
      calls: 1,
      usage: { prompt: 1, completion: 1 },
      latencyMs: 1,
    },
  };
}

async function paperRun(protocol: 'paper' | 'parley' | undefined): Promise<RunDir> {
  const op = openScenario();
  const cl = clScenario();
  const models: [string, string] = ['openai:gpt-3.5-turbo-0613', 'openai:gpt-3.5-turbo-0613'];
  const eps = [
    episode({ scenario: op, mode: 'agents', models, moves: [['a', 'speak', 'one two three four'], ['b', 'speak', 'five six']], evaluation: judged(6) }),
    episode({ scenario: op, mode: 'agents', repeat: 1, models, moves: [['a', 'speak', 'one two']], evaluation: judged(8) }),
    episode({ scenario: cl, mode: 'agents', models, moves: [['a', 'speak', 'seventy?'], ['b', 'speak', 'deal']], evaluation: judged(7) }),
  ];
  const dir = await writeRunDir([op, cl], eps, { config: { scenarios: 'S.jsonl', modes: ['agents'], maxTurns: 20, seed: 1, ...(protocol ? { protocol } : {}) } });
  return runs.load(dir);
}

describe("parley report beside the paper's numbers (issue 10, contract 4)", () => {
  it('the shipped data file is valid and cites the paper', () => {
    const p = loadPublished(PUBLISHED_FILE);
    expect(p.citation).toContain('arXiv:2403.05020');
    expect(p.source).toBe('https://arxiv.org/abs/2403.05020');
  });

  it("shows the paper's number, its interval and whether Parley's mean lands inside", async () => {
    const tmp = await mkdtemp(path.join(os.tmpdir(), 'parley-paper-'));
    runs.track(tmp);
    const file = path.join(tmp, 'numbers.json');
    await writeFile(file, JSON.stringify({
      citation: 'Test citation.',
      source: 'https://example.org/paper',
      numbers: [
        { metric: 'goal', mode: 'agents', model: 'gpt-3.5-turbo', subset: 'all', value: 7.2, lo: 6.5, hi: 7.9, where: 'Figure 2' },
        { metric: 'goal', mode: 'agents', model: 'gpt-3.5-turbo', subset: 'craigslist_bargains', value: 3.0, lo: 2.0, hi: 4.0, where: 'Figure 2' },
      ],
      notTranscribed: ['words per turn'],
    }));
    process.env.PARLEY_PAPER_NUMBERS = file;
    const run = await paperRun('paper');
    const out = await writeReport([run], { outDir: run.dir });
    const md = out.markdown;
    expect(md).toContain('## Beside the paper');
    // all: goals 6, 8, 7 → mean 7.00, inside [6.5, 7.9]
    expect(md).toMatch(/\| goal \| agents \| openai:gpt-3\.5-turbo-0613 × openai:gpt-3\.5-turbo-0613 \| all \| 7\.00 \[[\d.]+, [\d.]+\] \(3\) \| 7\.20 \[6\.50, 7\.90\] \| yes \(paper interval\) \| Figure 2 \|/);
    // craigslist_bargains: the one Craigslist episode, mean 7.00, outside [2, 4]
    expect(md).toMatch(/\| goal \| agents \| .* \| craigslist_bargains \| 7\.00 .*\| 3\.00 \[2\.00, 4\.00\] \| no \(paper interval\) \| Figure 2 \|/);
    // the paper reports no "hard" subset, so Parley's hard rows are not laid beside it
    expect(md).not.toMatch(/\| goal \| agents \| .* \| hard \|/);
    expect(md).toMatch(/\| words\/turn \| agents \| .* \| all \| .* \| not transcribed \| — \|/);
    expect(md).toContain('Not yet in the data file (so shown as "not transcribed"): words per turn.');
  });

  it("the shipped file holds the paper's own numbers (appendix D Table 1, §4.4, Figure 4) with where they are printed", () => {
    const p = loadPublished(PUBLISHED_FILE);
    const gpt = (mode: 'agents' | 'script' | 'mindreaders', models = 'openai:gpt-3.5-turbo-0613 × openai:gpt-3.5-turbo-0613') => ({ mode, models, subset: 'all' });
    expect(paperNumberFor(p, 'goal', gpt('agents'))).toMatchObject({ value: 6.95, where: expect.stringContaining('Table 1') });
    expect(paperNumberFor(p, 'goal', gpt('script', 'writer openai:gpt-3.5-turbo-0613'))?.value).toBe(8.44);
    expect(paperNumberFor(p, 'goal', gpt('mindreaders'))?.value).toBe(7.45);
    expect(paperNumberFor(p, 'knowledge', gpt('agents'))?.value).toBe(3.83);
    // Mixtral, matched case-insensitively in an OpenAI-compatible server's model id
    expect(paperNumberFor(p, 'goal', gpt('agents', 'openai:mistralai/Mixtral-8x7B-Instruct-v0.1 × openai:mistralai/Mixtral-8x7B-Instruct-v0.1'))?.value).toBe(7.49);
    expect(paperNumberFor(p, 'wordsPerTurn', gpt('agents', 'openai:mistralai/Mixtral-8x7B-Instruct-v0.1 × openai:mistralai/Mixtral-8x7B-Instruct-v0.1'))?.value).toBe(33.72);
    // the finetuned Agents-ft numbers only for a fine-tuned model label, and never for the base model
    const ft = 'openai:ft:gpt-3.5-turbo-0613:org::abc × openai:ft:gpt-3.5-turbo-0613:org::abc';
    expect(paperNumberFor(p, 'goal', gpt('agents', ft))?.value).toBe(7.93);
    expect(paperNumberFor(p, 'wordsPerTurn', gpt('agents', ft))?.value).toBe(14.98);
    expect(paperNumberFor(p, 'deal', { mode: 'agents', models: ft, subset: 'craigslist_bargains' })?.value).toBe(0.93);
    expect(paperNumberFor(p, 'deal', { mode: 'agents', models: 'openai:gpt-3.5-turbo-0613 × openai:gpt-3.5-turbo-0613', subset: 'craigslist_bargains' })).toMatchObject({ value: 0.3, printed: '30%' });
    expect(paperNumberFor(p, 'deal', { mode: 'script', models: 'writer openai:gpt-3.5-turbo-0613', subset: 'craigslist_bargains' })?.value).toBe(0.94);
    expect(paperNumberFor(p, 'firstMention', { mode: 'script', models: 'writer openai:gpt-3.5-turbo-0613', subset: 'mutual_friends' })?.value).toBe(0.13);
    expect(paperNumberFor(p, 'firstMention', { mode: 'agents', models: 'openai:gpt-3.5-turbo-0613 × openai:gpt-3.5-turbo-0613', subset: 'mutual_friends' })?.value).toBe(0.39);
    // the names-only characters (6.94) are in the file but never matched against a run
    expect(p.numbers.some((n) => n.characters === 'names-only' && n.value === 6.94)).toBe(true);
    // every entry says where it is printed; no entry claims an interval the text does not print
    expect(p.numbers.every((n) => n.where.length > 0 && n.lo === undefined && n.hi === undefined)).toBe(true);
    expect(p.notTranscribed.join(' ')).toContain('naturalness win rates');
  });

  it("parley report on a paper run lays the shipped file's GPT-3.5 numbers beside the run's", async () => {
    delete process.env.PARLEY_PAPER_NUMBERS;
    const run = await paperRun('paper');
    const out = await writeReport([run], { outDir: run.dir });
    const md = out.markdown;
    // all: goals 6, 8, 7 → mean 7.00; the paper's GPT-3.5 agents goal is 6.95 (Table 1)
    expect(md).toMatch(/\| goal \| agents \| openai:gpt-3\.5-turbo-0613 × openai:gpt-3\.5-turbo-0613 \| all \| 7\.00 \[[\d.]+, [\d.]+\] \(3\) \| 6\.95 \| (yes|no) \(parley interval\) \| Appendix D, Table 1 /);
    // words per turn: the paper's 29.83 with the note saying how the model was attributed
    expect(md).toMatch(/\| words\/turn \| agents \| .* \| all \| .* \| 29\.83 \(printed #29\.83 \(Agents\)\) \| no \(parley interval\) \| Figure 4 .*\(note \d\) \|/);
    expect(md).toMatch(/Note \d: Figure 9 prints the same pair/);
  });

  it('a run that is not a paper run gets no such section', async () => {
    const run = await paperRun(undefined);
    const out = await writeReport([run], { outDir: run.dir });
    expect(out.markdown).not.toContain('## Beside the paper');
  });
});
