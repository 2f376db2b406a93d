import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCassette } from '../llm/index.js';
import { startFakeLlmServer, type FakeLlmServer } from '../testkit/fake-llm-server.js';
import { tempDir } from './helpers/processes.js';
import { cleanEnv, parleyRun, readEpisodes, readRunJson, SMALL, turnsById } from './llm-run-helpers.js';

/**
 * Issue 3, contract points 1 and 6: a run with an OpenAI seat and a Mistral seat against any server that
 * implements POST /v1/chat/completions (here the fake, driven through the real SDKs in the agent
 * processes), then `--replay` of that run with no server at all.
 */
describe('parley run with LLM seats (issue 3: points 1 and 6)', () => {
  let server: FakeLlmServer;
  const dir = tempDir('llm-run');
  const replayDir = tempDir('llm-replay');
  const ARGS = [...SMALL, '--modes', 'agents,mindreaders', '--agent1', 'openai:gpt-3.5-turbo', '--agent2', 'mistral:open-mixtral-8x7b', '--limit', '2'];

  beforeAll(async () => {
    server = await startFakeLlmServer();
  });
  afterAll(async () => {
    await server.close();
    dir.remove();
    replayDir.remove();
  });

  it('completes; each episode names provider and model per seat, each LLM turn carries usage', async () => {
    const run = await parleyRun([...ARGS, '--out', dir.path], cleanEnv(server.env()));
    expect(run.code, run.stderr).toBe(0);
    const records = readEpisodes(dir.path);
    expect(records.map((r) => r.mode).sort()).toEqual(['agents', 'mindreaders']);
    for (const r of records) {
      expect(r.status).toBe('ok');
      expect(r.seats.map((s) => [s.seat, s.provider, s.model])).toEqual([
        ['agent1', 'openai', 'gpt-3.5-turbo'],
        ['agent2', 'mistral', 'open-mixtral-8x7b'],
      ]);
      expect(r.turns.length).toBeGreaterThan(1);
      for (const t of r.turns) {
        expect(t.error).toBeUndefined();
        expect(t.provider).toBe(t.seat === 'agent1' ? 'openai' : 'mistral');
        expect(t.usage!.prompt).toBeGreaterThan(0);
        expect(t.usage!.completion).toBeGreaterThan(0);
      }
      // Prompt caching works on the unchanging prefix: later turns report cached tokens.
      expect(r.turns.at(-1)!.usage!.cached).toBeGreaterThan(0);
    }
    // The server saw both SDKs: one request per LLM turn.
    const turns = records.reduce((n, r) => n + r.turns.length, 0);
    expect(server.requests).toHaveLength(turns);
    expect(new Set(server.requests.map((q) => q.headers['user-agent']?.split('/')[0]))).toEqual(new Set(['OpenAI', expect.stringMatching(/speakeasy|mistral/i)]));
    const stats = readRunJson(dir.path).stats;
    expect(Object.keys(stats.usage).sort()).toEqual(['mistral:open-mixtral-8x7b', 'openai:gpt-3.5-turbo']);
    // Both models are in the shipped price table, so the run carries an estimated cost.
    expect(stats.cost).toMatchObject({ usd: expect.any(Number), unpriced: [] });
    expect((stats.cost as { usd: number }).usd).toBeGreaterThan(0);
  });

  it("prompts carry the seat's own goal; the partner's only in mindreaders mode (read from the cassettes)", () => {
    const scenarios = new Map(
      readFileSync(join(dir.path, 'scenarios.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => {
        const s = JSON.parse(l) as { id: string; seats: Array<{ seat: string; goal: string; secret: string }> };
        return [s.id, s] as const;
      }),
    );
    let checked = 0;
    for (const r of readEpisodes(dir.path)) {
      const scenario = scenarios.get(r.scenarioId)!;
      for (const seat of scenario.seats) {
        const partner = scenario.seats.find((s) => s.seat !== seat.seat)!;
        const calls = readCassette(join(dir.path, 'cassettes', r.episodeId, `${seat.seat}.jsonl`))!;
        expect(calls.length).toBe(r.turns.filter((t) => t.seat === seat.seat).length);
        for (const call of calls) {
          const prompt = call.request.messages.map((m) => m.content).join('\n');
          expect(prompt).toContain(seat.goal);
          expect(prompt).toContain(seat.secret);
          if (r.mode === 'mindreaders') expect(prompt).toContain(partner.goal);
          else {
            expect(prompt).not.toContain(partner.goal);
            expect(prompt).not.toContain(partner.secret);
          }
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(4);
  });

  it('--replay with no server running reproduces the turns exactly', async () => {
    await server.close();
    const before = server.requests.length;
    // No keys and no server: a replay needs neither.
    const run = await parleyRun([...ARGS, '--replay', dir.path, '--out', replayDir.path], cleanEnv());
    expect(run.code, run.stderr).toBe(0);
    const original = readEpisodes(dir.path);
    const replayed = readEpisodes(replayDir.path);
    expect(replayed).toHaveLength(original.length);
    expect(turnsById(replayed)).toEqual(turnsById(original));
    expect(server.requests.length).toBe(before);
  });
});
