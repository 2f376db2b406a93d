import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EpisodeRecord } from '../protocol/index.js';
import { plausibleReply } from '../testkit/fake-llm-plausible.js';
import { reply, startFakeLlmServer, type FakeLlmServer, type ReceivedRequest } from '../testkit/fake-llm-server.js';
import { tempDir } from './helpers/processes.js';
import { cleanEnv, parleyCliInProcess, parleyRunInProcess, readEpisodes } from './llm-run-helpers.js';
import { readJsonl } from './training-helpers.js';

type RewardRow = { episodeId: string; seat: string; turn: number; action_type: string; argument: string; weight: number; reward: number; goal: number };
type Split = { ok: true; score: number; shares: Array<{ turn: number; weight: number; share: number }> } | { ok: false; error: { code: string } };

const isAttribution = (q: ReceivedRequest) => q.body.response_format?.json_schema?.name === 'parley_attribution';

/**
 * Issue 40, contract 2: `eval --attribute` on 5 episodes of LLM seats against the fake OpenAI-compatible
 * server. The fake judge gives each seat a goal from 1 to 9 (by the episode's transcript length and the seat);
 * the fake attribution model weighs each move 1–3 by its turn, so the shares are uneven.
 */
describe('eval --attribute and export --format rewards (issue 40: contract 2)', () => {
  let server: FakeLlmServer;
  const dir = tempDir('attr');
  const plain = tempDir('attr-plain');
  let records: EpisodeRecord[];

  beforeAll(async () => {
    server = await startFakeLlmServer({
      default: (q) => {
        if (isAttribution(q)) {
          const keys = Object.keys((q.body.response_format!.json_schema!.schema!.properties as { weights: { properties: Record<string, unknown> } }).weights.properties);
          return reply.json({ weights: Object.fromEntries(keys.map((k) => [k, (Number(k.replace('turn ', '')) % 3) + 1])) });
        }
        const text = plausibleReply(q.body);
        const judged = JSON.parse(text) as { evaluations?: Record<string, { goal?: { score: number } }> };
        if (!judged.evaluations) return reply.text(text);
        const length = JSON.stringify(q.body.messages).length;
        for (const [i, s] of Object.values(judged.evaluations).entries()) if (s.goal) s.goal.score = ((length + i) % 9) + 1;
        return reply.json(judged);
      },
    });
    const run = await parleyRunInProcess(['--scenarios', 'builtin', '--modes', 'agents', '--limit', '5', '--max-turns', '8', '--concurrency', '1', '--agent1', 'openai:gpt-3.5-turbo', '--agent2', 'openai:gpt-3.5-turbo', '--out', dir.path], cleanEnv(server.env()), 180_000);
    expect(run.code, run.stderr).toBe(0);
    cpSync(dir.path, plain.path, { recursive: true });
  }, 240_000);
  afterAll(async () => {
    await server.close();
    dir.remove();
    plain.remove();
  });

  it("each seat's move shares sum to its goal (±0.01); the judge's requests are those of an eval without --attribute", async () => {
    const env = cleanEnv(server.env());
    let from = server.requests.length;
    const without = await parleyCliInProcess(['eval', plain.path, '--judge', 'openai:gpt-4o'], env);
    expect(without.code, without.stderr).toBe(0);
    const judgeOnly = server.requests.slice(from).map((q) => JSON.stringify(q.body));
    from = server.requests.length;
    const judged = await parleyCliInProcess(['eval', dir.path, '--judge', 'openai:gpt-4o', '--attribute'], env);
    expect(judged.code, judged.stderr).toBe(0);
    const sent = server.requests.slice(from);
    // --attribute adds its own requests after the judge's; the judge's are unchanged, byte for byte.
    expect(sent.filter((q) => !isAttribution(q)).map((q) => JSON.stringify(q.body)).sort()).toEqual([...judgeOnly].sort());
    records = readEpisodes(dir.path);
    expect(records).toHaveLength(5);
    expect(sent.filter(isAttribution)).toHaveLength(10);
    expect(judged.stdout).toContain('attributed 5 episodes: 10 seats split, 0 attribution errors');
    const goals = new Set<number>();
    for (const r of records) {
      const a = r.evaluation!.attribution!;
      expect(a).toMatchObject({ spec: 'openai:gpt-4o', dimension: 'goal', of: 'openai:gpt-4o full' });
      for (const seat of ['agent1', 'agent2']) {
        const split = a.seats[seat] as Split;
        expect(split.ok).toBe(true);
        if (!split.ok) continue;
        const goal = (r.evaluation!.judge!.seats[seat] as { ok: true; scores: Record<string, { score: number }> }).scores.goal!.score;
        goals.add(goal);
        expect(split.score).toBe(goal);
        expect(Math.abs(split.shares.reduce((n, x) => n + x.share, 0) - goal)).toBeLessThanOrEqual(0.01);
        // One share per move of the seat (not its none turns), weighed as the fake said.
        expect(split.shares.map((x) => x.turn)).toEqual(r.turns.filter((t) => t.seat === seat && t.action && t.action.type !== 'none').map((t) => t.turn));
        expect(split.shares.map((x) => x.weight)).toEqual(split.shares.map((x) => (x.turn % 3) + 1));
      }
    }
    expect(goals.size).toBeGreaterThan(1);
  });

  it('export --format rewards: one row per move, rewards summing to the goal per seat', async () => {
    const exp = await parleyCliInProcess(['export', dir.path, '--format', 'rewards'], cleanEnv());
    expect(exp.code, exp.stderr).toBe(0);
    const rows = readJsonl<RewardRow>(join(dir.path, 'rewards.jsonl'));
    const moves = records.flatMap((r) => r.turns.filter((t) => t.action && t.action.type !== 'none').map((t) => ({ r, t })));
    expect(rows).toHaveLength(moves.length);
    expect(exp.stdout).toContain(`${moves.length} rows, one per move of the 5 episodes split`);
    for (const { r, t } of moves) {
      const row = rows.find((x) => x.episodeId === r.episodeId && x.seat === t.seat && x.turn === t.turn)!;
      expect(row).toMatchObject({ action_type: t.action!.type, argument: t.action!.argument, weight: (t.turn % 3) + 1 });
    }
    for (const r of records) {
      for (const seat of ['agent1', 'agent2']) {
        const mine = rows.filter((x) => x.episodeId === r.episodeId && x.seat === seat);
        expect(Math.abs(mine.reduce((n, x) => n + x.reward, 0) - mine[0]!.goal)).toBeLessThanOrEqual(0.01);
      }
    }
    // A run without --attribute has nothing to export: said, exit 1.
    const none = await parleyCliInProcess(['export', plain.path, '--format', 'rewards'], cleanEnv());
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('--attribute first');
  });

  it("README's second command: --attribute --attribution-model M --missing splits with M only what is not split yet, judging nothing again", async () => {
    const env = cleanEnv(server.env());
    const args = (d: string) => ['eval', d, '--judge', 'openai:gpt-4o', '--attribute', '--attribution-model', 'openai:gpt-4o-mini', '--missing'];
    // `plain` was judged (first test) and never split: no judge request, one split per seat, by the other model.
    let from = server.requests.length;
    const split = await parleyCliInProcess(args(plain.path), env);
    expect(split.code, split.stderr).toBe(0);
    let sent = server.requests.slice(from);
    expect(sent.filter((q) => !isAttribution(q))).toHaveLength(0);
    expect(sent.filter(isAttribution).map((q) => q.body.model)).toEqual(Array(10).fill('gpt-4o-mini'));
    for (const r of readEpisodes(plain.path)) expect(r.evaluation!.attribution).toMatchObject({ spec: 'openai:gpt-4o-mini', of: 'openai:gpt-4o full' });
    // `dir` is split already (by gpt-4o): nothing is sent, nothing changes.
    from = server.requests.length;
    const again = await parleyCliInProcess(args(dir.path), env);
    expect(again.code, again.stderr).toBe(0);
    sent = server.requests.slice(from);
    expect(sent).toHaveLength(0);
    for (const r of readEpisodes(dir.path)) expect(r.evaluation!.attribution!.spec).toBe('openai:gpt-4o');
  });

  it('refuses --attribution-model without --attribute, and --attribute with --dry-run: one line, exit 2', async () => {
    const a = await parleyCliInProcess(['eval', plain.path, '--judge', 'openai:gpt-4o', '--attribution-model', 'openai:gpt-4o'], cleanEnv(server.env()));
    expect(a.code).toBe(2);
    expect(a.stderr).toContain('--attribution-model is for --attribute');
    const b = await parleyCliInProcess(['eval', plain.path, '--judge', 'openai:gpt-4o', '--attribute', '--dry-run'], cleanEnv(server.env()));
    expect(b.code).toBe(2);
    expect(b.stderr).toContain('--attribute is not priced by --dry-run yet');
  });
});
