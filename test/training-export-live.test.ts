import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCassette } from '../llm/index.js';
import { startFakeLlmServer, type FakeLlmServer } from '../testkit/fake-llm-server.js';
import { tempDir } from './helpers/processes.js';
import { cleanEnv, parleyRunInProcess, readEpisodes, SMALL } from './llm-run-helpers.js';
import { parleyCliInProcess, readJsonl, type ChatLine, type IndexLine } from './training-helpers.js';

/**
 * Issue 14, contract point 1: on an agents + mindreaders run with `openai:` seats against an
 * OpenAI-compatible server (the fake, through the real SDK), `parley export --format openai-chat` writes
 * one example per seat turn whose messages equal, byte for byte, the request in that seat's cassette
 * for that turn. The comparison is against the cassette, never a fixed string: prompt wording may change.
 */
describe('parley export --format openai-chat on a live LLM run (issue 14: point 1)', () => {
  let server: FakeLlmServer;
  const dir = tempDir('ft-live');

  beforeAll(async () => {
    server = await startFakeLlmServer();
    const run = await parleyRunInProcess(
      [...SMALL, '--modes', 'agents,mindreaders', '--agent1', 'openai:gpt-3.5-turbo', '--agent2', 'openai:gpt-3.5-turbo', '--limit', '2', '--out', dir.path],
      cleanEnv(server.env()),
    );
    expect(run.code, run.stderr).toBe(0);
  });
  afterAll(async () => {
    await server.close();
    dir.remove();
  });

  it('one example per seat turn; each prompt equals the cassette request of that turn; the move is the assistant message', async () => {
    const out = join(dir.path, 'ft.jsonl');
    const exp = await parleyCliInProcess(['export', dir.path, '--format', 'openai-chat', '--out', out], cleanEnv());
    expect(exp.code, exp.stderr).toBe(0);
    const lines = readJsonl<ChatLine>(out);
    const index = readJsonl<IndexLine>(join(dir.path, 'ft.index.jsonl'));
    const records = readEpisodes(dir.path);
    expect(records.map((r) => r.mode).sort()).toEqual(['agents', 'mindreaders']);
    const seatTurns = records.reduce((n, r) => n + r.turns.length, 0);
    expect(seatTurns).toBeGreaterThan(4);
    expect(lines).toHaveLength(seatTurns);
    expect(index).toHaveLength(seatTurns);
    expect(exp.stdout).toContain(`${seatTurns} examples from 2 episodes, 1 scenarios`);

    let compared = 0;
    index.forEach((ix, i) => {
      const record = records.find((r) => r.episodeId === ix.episodeId)!;
      const mine = record.turns.filter((t) => t.seat === ix.seat).map((t) => t.turn);
      const calls = readCassette(join(dir.path, 'cassettes', ix.episodeId, `${ix.seat}.jsonl`))!;
      // The fake answers every call well, so each turn is exactly one call: the k-th call is the k-th turn.
      expect(calls).toHaveLength(mine.length);
      const call = calls[mine.indexOf(ix.turn)]!;
      const messages = lines[i]!.messages;
      expect(JSON.stringify(messages.slice(0, -1))).toBe(JSON.stringify(call.request.messages));
      const action = record.turns.find((t) => t.turn === ix.turn)!.action!;
      expect(messages.at(-1)).toEqual({ role: 'assistant', content: JSON.stringify({ action_type: action.type, argument: action.argument }) });
      compared++;
    });
    expect(compared).toBe(seatTurns);
  });
});
