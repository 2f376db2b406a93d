import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCassette } from '../llm/index.js';
import { reply } from '../testkit/fake-llm-server.js';
import { cleanEnv, parleyRun, readEpisodes, SMALL } from './llm-run-helpers.js';
import { fakeLlmSuite } from './helpers/fake-llm-suite.js';

/** Issue 3, contract point 2: script mode with an LLM writer — one generation request per episode (+ ≤ 1 reformat). */
describe('parley run --modes script with an LLM script writer (issue 3: point 2)', () => {
  const suite = fakeLlmSuite('llm-script');
  const dir = suite.tmp;


  it('makes one request per episode, one more only to reformat an unreadable script, same record format', async () => {
    // The very first script comes back as prose: that episode gets exactly one reformat request.
    suite.server.enqueue(reply.text('INT. KITCHEN — Alice: Could you keep it down? Bob: Sure.'));
    const run = await parleyRun([...SMALL, '--modes', 'script', '--script-writer', 'openai:gpt-3.5-turbo', '--limit', '3', '--out', dir.path], cleanEnv(suite.server.env()));
    expect(run.code, run.stderr).toBe(0);
    const records = readEpisodes(dir.path);
    expect(records).toHaveLength(3);

    const perEpisode = Object.fromEntries(
      readdirSync(join(dir.path, 'cassettes')).map((ep) => [ep, readCassette(join(dir.path, 'cassettes', ep, 'script.jsonl'))!.length]),
    );
    expect(Object.keys(perEpisode).sort()).toEqual(records.map((r) => r.episodeId).sort());
    expect(Object.values(perEpisode).sort()).toEqual([1, 1, 2]);
    expect(suite.server.requests).toHaveLength(4);
    expect(suite.server.requests.every((q) => (q.body.response_format as { json_schema?: { name?: string } })?.json_schema?.name === 'parley_script')).toBe(true);

    for (const r of records) {
      expect(r.mode).toBe('script');
      expect(r.status).toBe('ok');
      expect(r.scriptWriter).toMatchObject({ policy: 'openai:gpt-3.5-turbo', provider: 'openai', model: 'gpt-3.5-turbo', usage: { prompt: expect.any(Number) } });
      expect(r.scriptWriter!.repairs!.reformat).toBe(perEpisode[r.episodeId]! - 1);
      expect(r.turns.length).toBeGreaterThan(0);
      expect(r.turns.length).toBeLessThanOrEqual(8);
      // The same turn records as the live modes: turn, seat, action.
      r.turns.forEach((t, i) => {
        expect(t.turn).toBe(i);
        expect(r.seats.map((s) => s.seat)).toContain(t.seat);
        expect(t.action).toMatchObject({ type: 'speak', argument: expect.any(String) });
      });
    }
  });
});
