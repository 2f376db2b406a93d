import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { reply, startFakeLlmServer, type FakeLlmServer, type ReceivedRequest } from '../testkit/fake-llm-server.js';
import { tempDir } from './helpers/processes.js';
import { cleanEnv, parleyRunInProcess, readEpisodes, readRunJson, SMALL } from './llm-run-helpers.js';

/** Issue 3, contract points 3, 4 and 5: malformed replies, 429 with Retry-After, a missing key. */
describe('LLM failures in a run (issue 3: points 3, 4, 5)', () => {
  let server: FakeLlmServer;
  const dirs: Array<{ path: string; remove(): void }> = [];
  const newDir = (p: string) => {
    const d = tempDir(p);
    dirs.push(d);
    return d.path;
  };
  const SEATS = ['--agent1', 'openai:gpt-3.5-turbo', '--agent2', 'mistral:open-mixtral-8x7b'];

  beforeAll(async () => {
    server = await startFakeLlmServer();
  });
  beforeEach(() => {
    server.requests.length = 0;
    server.setDefault(reply.plausible());
  });
  afterAll(async () => {
    await server.close();
    for (const d of dirs) d.remove();
  });

  it('repairs malformed replies or records them as explicit turn errors, visibly in episodes.jsonl', async () => {
    const turnOf = (q: ReceivedRequest) => Number(/You are at Turn #(\d+)/.exec(JSON.stringify(q.body.messages))?.[1] ?? -1);
    const isReformat = (q: ReceivedRequest) => (q.body.messages ?? []).some((m) => m.role === 'assistant');
    let hopeless = 0;
    server.setDefault((q) => {
      const turn = turnOf(q);
      // Only the first episode's turn 2 is hopeless (its first ask and its one reformat request).
      if (turn === 2 && hopeless < 2) {
        hopeless++;
        return reply.text(isReformat(q) ? 'Still just prose, sorry.' : 'Hmm, let me think.');
      }
      if (turn === 0) return reply.text('```json\n{"action": "speak", "content": "Hello, neighbour."}\n```'); // wrong shape: lenient
      if (turn === 1) return isReformat(q) ? reply.plausible() : reply.text('I would greet them warmly.'); // not JSON: reformat
      return reply.plausible();
    });
    const dir = newDir('llm-malformed');
    const run = await parleyRunInProcess([...SMALL, '--modes', 'agents', ...SEATS, '--limit', '2', '--out', dir], cleanEnv(server.env()));
    expect(run.code, run.stderr).toBe(0);
    const [episode, second] = readEpisodes(dir);
    const [t0, t1, t2] = episode!.turns;
    expect(t0).toMatchObject({ action: { type: 'speak', argument: 'Hello, neighbour.' }, repairs: { lenient: 1, reformat: 0 } });
    expect(t1).toMatchObject({ action: { type: 'speak' }, repairs: { lenient: 0, reformat: 1 } });
    expect(t2).toMatchObject({ action: null, error: { code: 'policy/unparsable' }, repairs: { lenient: 0, reformat: 1 } });
    expect(t2!.error!.message).toContain('Still just prose');
    expect(episode!.errors.some((e) => e.code === 'policy/unparsable')).toBe(true);
    expect(episode!.status).toBe('failed');
    // Two requests for turn 1 and two for turn 2, one for turn 0.
    expect(server.requests.map(turnOf).slice(0, 5)).toEqual([0, 1, 1, 2, 2]);
    // The second episode repairs turns 0 and 1 the same way and then plays on.
    expect(second!.status).toBe('ok');
    expect(second!.turns.slice(0, 2).map((t) => t.repairs)).toEqual([{ lenient: 1, reformat: 0 }, { lenient: 0, reformat: 1 }]);
    expect(second!.turns.every((t) => t.action !== null)).toBe(true);
    expect(readRunJson(dir).stats.repairs).toEqual({ lenient: 2, reformat: 3 });
  });

  it('429 with Retry-After: 1 to the first requests: the run completes and run.json counts the retries', async () => {
    server.enqueue(reply.rateLimited('1'), reply.rateLimited('1'));
    const dir = newDir('llm-429');
    const run = await parleyRunInProcess([...SMALL, '--modes', 'agents', ...SEATS, '--limit', '1', '--out', dir], cleanEnv(server.env()));
    expect(run.code, run.stderr).toBe(0);
    const [episode] = readEpisodes(dir);
    expect(episode!.status).toBe('ok');
    expect(episode!.turns[0]).toMatchObject({ retries: 2, action: { type: 'speak' } });
    expect(readRunJson(dir).stats.retries).toBe(2);
    const [a, b, c] = server.requests;
    expect(b!.receivedAt - a!.receivedAt).toBeGreaterThanOrEqual(990);
    expect(c!.receivedAt - b!.receivedAt).toBeGreaterThanOrEqual(990);
  });

  it.each([
    ['OPENAI_API_KEY', { MISTRAL_API_KEY: 'x' }],
    ['MISTRAL_API_KEY', { OPENAI_API_KEY: 'x' }],
  ])('a chosen provider without a key exits non-zero before any episode, naming %s', async (variable, keys) => {
    const dir = newDir('llm-nokey');
    const env = cleanEnv({ ...keys, OPENAI_BASE_URL: server.openaiBaseURL, MISTRAL_BASE_URL: server.url });
    const run = await parleyRunInProcess([...SMALL, '--modes', 'agents', ...SEATS, '--limit', '1', '--out', dir], env);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(variable);
    expect(existsSync(join(dir, 'episodes.jsonl'))).toBe(false);
    expect(server.requests).toHaveLength(0);
  });
});
