import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCassette } from '../llm/index.js';
import type { EpisodeRecord } from '../protocol/index.js';
import { plausibleReply } from '../testkit/fake-llm-plausible.js';
import { reply, startFakeLlmServer, type FakeLlmServer, type ReceivedRequest } from '../testkit/fake-llm-server.js';
import { ledger, promptTurn } from './fork-helpers.js';
import { tempDir } from './helpers/processes.js';
import { cleanEnv, parleyCliInProcess, parleyRunInProcess, readEpisodes } from './llm-run-helpers.js';
import { readJsonl } from './training-helpers.js';

type DpoLine = { input: { messages: Array<{ role: string; content: string }> }; preferred_output: Array<{ role: string; content: string }>; non_preferred_output: Array<{ role: string; content: string }> };
type PairIndex = { parentRun: string; parentEpisode: string; turn: number; seat: string; margin: number; chosen: { run: string; episodeId: string; score: number }; rejected: { run: string; episodeId: string; score: number } };

/** The number agent1 names in its turn-4 move (`My price is N.`), read back by the fake judge from the transcript. */
const PRICE = /My price is (\d+)\./;

/**
 * The fake server for issue 40's contract 1: every move is a `speak` (so the parent plays all 8 turns);
 * the move at turn 4 (agent1's, the fork turn) names a number that grows with each such request, so the
 * siblings of one fork differ there; the judge gives agent1 a goal of that number mod 10 (4 siblings in a
 * row: 4 different goals) and otherwise answers as the plausible default.
 */
function contractServer(): Promise<FakeLlmServer> {
  let fourth = 0;
  return startFakeLlmServer({
    default: (q: ReceivedRequest) => {
      const format = q.body.response_format?.json_schema?.name;
      if (format && format !== 'parley_action') {
        const judged = JSON.parse(plausibleReply(q.body)) as { evaluations?: Record<string, { goal?: { score: number } }> };
        const price = PRICE.exec(JSON.stringify(q.body.messages));
        if (judged.evaluations?.agent1?.goal && price) judged.evaluations.agent1.goal.score = Number(price[1]) % 10;
        return reply.json(judged);
      }
      const turn = promptTurn(q);
      return reply.json({ action_type: 'speak', argument: turn === 4 ? `My price is ${fourth++}.` : `A word at turn ${turn}.` });
    },
  });
}

/**
 * Issue 40, contract 1: a parent run of LLM seats on 3 Craigslist scenarios against the fake
 * OpenAI-compatible server, each episode forked at turn 4 with 4 repeats, the forks judged; then
 * `parley pairs F --seat agent1 --min-margin 1 --format openai-dpo`.
 */
describe('parley pairs (issue 40: contract 1)', () => {
  let server: FakeLlmServer;
  const r = tempDir('pairs-r');
  const f = tempDir('pairs-f');
  let parents: EpisodeRecord[];

  beforeAll(async () => {
    server = await contractServer();
    const env = cleanEnv(server.env());
    const run = await parleyRunInProcess(['--scenarios', 'builtin', '--subset', 'craigslist_bargains', '--modes', 'agents', '--limit', '3', '--max-turns', '8', '--concurrency', '1', '--agent1', 'openai:gpt-3.5-turbo', '--agent2', 'openai:gpt-3.5-turbo', '--out', r.path], env, 180_000);
    expect(run.code, run.stderr).toBe(0);
    parents = readEpisodes(r.path);
    expect(new Set(parents.map((p) => p.scenarioId)).size).toBe(3);
    for (const [i, p] of parents.entries()) {
      expect(p.turns.length).toBeGreaterThan(4);
      const fork = await parleyCliInProcess(['fork', r.path, p.episodeId, '--at', '4', '--repeats', '4', '--out', join(f.path, `ep${i}`)], env);
      expect(fork.code, fork.stderr).toBe(0);
      const judged = await parleyCliInProcess(['eval', join(f.path, `ep${i}`), '--judge', 'openai:gpt-4o'], env);
      expect(judged.code, judged.stderr).toBe(0);
    }
  }, 900_000);
  afterAll(async () => {
    await server.close();
    r.remove();
    f.remove();
  });

  it('pairs whose prompt is agent1\'s turn-4 prompt byte for byte (ledger and cassettes), the preferred goal ≥ 1 above; the fake fine-tuning endpoint takes the file', async () => {
    const made = await parleyCliInProcess(['pairs', f.path, '--seat', 'agent1', '--min-margin', '1', '--format', 'openai-dpo'], cleanEnv());
    expect(made.code, made.stderr).toBe(0);
    const file = join(f.path, 'pairs.openai-dpo.jsonl');
    const lines = readJsonl<DpoLine>(file);
    const index = readJsonl<PairIndex>(join(f.path, 'pairs.openai-dpo.index.jsonl'));
    // 3 groups of 4 siblings with 4 different goals: every one of the 6 pairs of each group has a margin ≥ 1.
    expect(lines).toHaveLength(18);
    expect(index).toHaveLength(18);
    expect(made.stdout).toContain('18 pairs from 3 sibling groups (12 fork episodes), ranked by goal, margin ≥ 1');
    expect(made.stdout).toMatch(/margin histogram \(goal\):\n {2}\[1, 2\) +#+ \d+/);
    const histogram = [...made.stdout.matchAll(/^ {2}\[(\d+), \d+\) +#+ (\d+)$/gm)].map((m) => [Number(m[1]), Number(m[2])]);
    expect(histogram.reduce((n, [, c]) => n + c!, 0)).toBe(18);
    const forks = new Map(index.flatMap((ix) => [ix.chosen, ix.rejected]).map((s) => [s.episodeId, readEpisodes(s.run).find((e) => e.episodeId === s.episodeId)!]));
    expect(forks.size).toBe(12);

    for (const [i, line] of lines.entries()) {
      const ix = index[i]!;
      expect(ix).toMatchObject({ turn: 4, seat: 'agent1' });
      // The preferred continuation's goal is at least 1 above the other's, as the judge recorded it.
      const goal = (id: string) => (forks.get(id)!.evaluation!.judge!.seats.agent1 as { ok: true; scores: Record<string, { score: number }> }).scores.goal!.score;
      expect(goal(ix.chosen.episodeId) - goal(ix.rejected.episodeId)).toBeGreaterThanOrEqual(1);
      expect([goal(ix.chosen.episodeId), goal(ix.rejected.episodeId)]).toEqual([ix.chosen.score, ix.rejected.score]);
      // The prompt is what agent1's LLM was sent at turn 4: its first live call in each fork, and the parent's turn-4 call.
      const parent = parents.find((p) => p.episodeId === ix.parentEpisode)!;
      const parentCall = readCassette(join(r.path, 'cassettes', parent.episodeId, 'agent1.jsonl'))!.find((c) => /You are at Turn #4[.;]/.test(c.request.messages.map((m) => m.content).join('\n')))!;
      expect(JSON.stringify(line.input.messages)).toBe(JSON.stringify(parentCall.request.messages));
      for (const [side, output] of [[ix.chosen, line.preferred_output], [ix.rejected, line.non_preferred_output]] as const) {
        const call = readCassette(join(side.run, 'cassettes', side.episodeId, 'agent1.jsonl'))![0]!;
        expect(JSON.stringify(line.input.messages)).toBe(JSON.stringify(call.request.messages));
        // The continuation is the move of that turn: the cassette's reply, and the move agent1's ledger recorded.
        expect(output).toEqual([{ role: 'assistant', content: call.response!.content }]);
        const event = ledger(side.run, side.episodeId, 'agent1').find((x) => x.type === 'turn.event' && x.turn === 4) as unknown as { action: { type: string; argument: string } };
        expect(JSON.parse(output[0]!.content)).toEqual({ action_type: event.action.type, argument: event.action.argument });
      }
      expect(line.preferred_output[0]!.content).not.toBe(line.non_preferred_output[0]!.content);
    }

    // The fake fine-tuning endpoint checks the file as OpenAI's preference format and starts a dpo job.
    const submit = await parleyCliInProcess(['finetune', 'submit', file, '--provider', 'openai', '--model', 'gpt-4.1-mini-2025-04-14', '--method', 'dpo'], cleanEnv(server.env()));
    expect(submit.code, submit.stderr).toBe(0);
    expect(server.fineTuning.jobs.at(-1)).toMatchObject({ flavour: 'openai', method: 'dpo', model: 'gpt-4.1-mini-2025-04-14' });
  });

  it('the endpoint refuses what OpenAI would: a chat file sent as dpo, pairs sent as supervised', async () => {
    const env = cleanEnv(server.env());
    const file = join(f.path, 'pairs.openai-dpo.jsonl');
    const asSupervised = await parleyCliInProcess(['finetune', 'submit', file, '--provider', 'openai', '--model', 'gpt-4.1-mini-2025-04-14'], env);
    expect(asSupervised.code).toBe(1);
    expect(asSupervised.stderr).toContain('expected {"messages": [...]} with an assistant message');
    const mistral = await parleyCliInProcess(['finetune', 'submit', file, '--provider', 'mistral', '--model', 'open-mistral-7b', '--method', 'dpo'], env);
    expect(mistral.code).toBe(2);
    expect(mistral.stderr).toContain('--method dpo: mistral fine-tuning takes supervised');
    const jobs = server.fineTuning.jobs.length;
    const trl = await parleyCliInProcess(['pairs', f.path, '--seat', 'agent1', '--format', 'trl', '--out', join(f.path, 'trl.jsonl')], cleanEnv());
    expect(trl.code, trl.stderr).toBe(0);
    const line = readJsonl<{ prompt: unknown[]; chosen: unknown[]; rejected: unknown[] }>(join(f.path, 'trl.jsonl'))[0]!;
    expect(Object.keys(line)).toEqual(['prompt', 'chosen', 'rejected']);
    const asDpo = await parleyCliInProcess(['finetune', 'submit', join(f.path, 'trl.jsonl'), '--provider', 'openai', '--model', 'gpt-4.1-mini-2025-04-14', '--method', 'dpo'], env);
    expect(asDpo.code).toBe(1);
    expect(asDpo.stderr).toContain('expected {"input": {"messages": [...]}');
    expect(server.fineTuning.jobs).toHaveLength(jobs);
  });

  it('refuses with one line, exit 2 and nothing written: no seat, a margin of 0, an unknown score', async () => {
    for (const [args, text] of [
      [[], '--seat SEAT is required'],
      [['--seat', 'agent1', '--min-margin', '0'], '--min-margin must be a number above 0'],
      [['--seat', 'agent1', '--score', 'charm'], "--score: no judge scored a dimension 'charm'"],
      [['--seat', 'agent1', '--format', 'csv'], '--format must be one of openai-dpo, trl'],
    ] as const) {
      const out = join(f.path, 'refused.jsonl');
      const res = await parleyCliInProcess(['pairs', f.path, ...args, '--out', out], cleanEnv());
      expect(res.code).toBe(2);
      expect(res.stderr).toContain(text);
      expect(existsSync(out)).toBe(false);
    }
    // agent2 does not move at turn 4: no pair, every fork counted with its reason, nothing written, exit 1.
    const out = join(f.path, 'agent2.jsonl');
    const agent2 = await parleyCliInProcess(['pairs', f.path, '--seat', 'agent2', '--out', out], cleanEnv());
    expect(agent2.code).toBe(1);
    expect(agent2.stderr).toContain('left out: seat did not move at the fork turn ×12');
    expect(existsSync(out)).toBe(false);
  });
});
