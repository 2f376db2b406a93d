import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readCassette } from '../llm/index.js';
import { fakeLlmSuite } from './helpers/fake-llm-suite.js';
import { cleanEnv, parleyCliInProcess, parleyRunInProcess, readEpisodes } from './llm-run-helpers.js';

const SEATS = ['agent1', 'agent2', 'agent3', 'agent4', 'agent5', 'agent6'];

/**
 * Issue 39, contract 3: a werewolf run of two models over 20 games against the fake OpenAI-compatible
 * server (the real SDK in every agent process; the fake's plausible replies play legal game moves), with
 * the rounds bounded by --max-turns; the report ranks both models with bootstrap intervals.
 */
describe('werewolf with two models, 20 games, against a fake server', () => {
  const suite = fakeLlmSuite('games-llm');
  const { tmp: dir } = suite;
  const out = join(dir.path, 'R');
  let run: Awaited<ReturnType<typeof parleyRunInProcess>>;

  beforeAll(async () => {
    // Seats alternate between the two models; the deal gives each model every role over the run. Multiplexed
    // (6 agent processes instead of 24): the contract is about the report's ranking of two models, not one
    // seat per process; a process still never hosts two seats of one game.
    const seats = SEATS.flatMap((s, i) => [`--${s}`, `openai:${i % 2 ? 'model-b' : 'model-a'}`]);
    run = await parleyRunInProcess(['--scenarios', 'builtin', '--subset', 'werewolf', '--modes', 'agents', '--repeats', '20', ...seats, '--max-turns', '2', '--concurrency', '4', '--multiplex', '--out', out], cleanEnv(suite.server.env()), 240_000);
  }, 260_000);

  it('plays 20 games with LLM seats of two models, each to a winning side', () => {
    expect(run.code, run.stderr).toBe(0);
    const records = readEpisodes(out);
    expect(records).toHaveLength(20);
    for (const r of records) {
      expect(r.status).toBe('ok');
      expect(r.game?.winner).toMatch(/^(wolves|village)$/);
      expect(new Set(r.seats.map((s) => s.policy))).toEqual(new Set(['openai:model-a', 'openai:model-b']));
    }
    // Prompts carried the seat's role card and the move to write.
    const prompts = suite.server.requests.map((q) => JSON.stringify(q.body.messages ?? []));
    expect(prompts.some((p) => p.includes('Your role (secret): Werewolf'))).toBe(true);
    expect(prompts.some((p) => /write \\"vote <player>\\"/.test(p))).toBe(true);
  });

  it("the fine-tuning export rebuilds each game seat's prompt from its ledger, notices included, as its cassette has it", async () => {
    const ft = join(dir.path, 'ft.jsonl');
    const exp = await parleyCliInProcess(['export', out, '--format', 'openai-chat', '--out', ft], cleanEnv());
    expect(exp.code, exp.stderr).toBe(0);
    const readJsonl = (f: string) => readFileSync(f, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const lines = readJsonl(ft) as Array<{ messages: Array<{ role: string; content: string }> }>;
    const index = readJsonl(join(dir.path, 'ft.index.jsonl')) as Array<{ episodeId: string; seat: string; turn: number }>;
    const records = readEpisodes(out);
    let checked = 0;
    index.slice(0, 60).forEach((ix, i) => {
      const mine = records.find((r) => r.episodeId === ix.episodeId)!.turns.filter((t) => t.seat === ix.seat).map((t) => t.turn);
      const calls = readCassette(join(out, 'cassettes', ix.episodeId, `${ix.seat}.jsonl`))!;
      expect(JSON.stringify(lines[i]!.messages.slice(0, -1))).toBe(JSON.stringify(calls[mine.indexOf(ix.turn)]!.request.messages));
      checked += 1;
    });
    expect(checked).toBe(60);
    expect(lines.some((l) => l.messages.some((m) => m.content.includes('[Moderator]')))).toBe(true);
  });

  it('the report ranks both models with bootstrap intervals', async () => {
    const rep = await parleyCliInProcess(['report', out], cleanEnv(suite.server.env()));
    expect(rep.code, rep.stderr).toBe(0);
    const report = readFileSync(join(out, 'report.md'), 'utf8');
    const section = report.slice(report.indexOf('### Model ratings (Bradley–Terry)'));
    expect(section.startsWith('### Model ratings')).toBe(true);
    const rows = [...section.matchAll(/^\| (\d) \| openai:(model-[ab]) \| (\d+) \| (\d+) \| \[(\d+), (\d+)\] \|$/gm)];
    expect(rows.map((r) => r[2]).sort()).toEqual(['model-a', 'model-b']);
    expect(rows.map((r) => r[1])).toEqual(['1', '2']);
    for (const [, , , games, rating, lo, hi] of rows) {
      expect(Number(games)).toBe(20);
      expect(Number(lo)).toBeLessThanOrEqual(Number(rating));
      expect(Number(hi)).toBeGreaterThanOrEqual(Number(rating));
    }
    expect(report).toMatch(/\| openai:model-a \| \d+\/60 /);
  });
});
