import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plausibleReply } from '../testkit/fake-llm-plausible.js';
import { startFakeLlmServer, type FakeLlmServer } from '../testkit/fake-llm-server.js';

describe('fake LLM server', () => {
  let server: FakeLlmServer;
  beforeAll(async () => {
    server = await startFakeLlmServer({ requireKey: 'k' });
  });
  afterAll(() => server.close());

  const post = (path: string, body: unknown, key = 'k') =>
    fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify(body) });

  it('answers chat completions with the full OpenAI shape and records the request', async () => {
    const res = await post('/v1/chat/completions', { model: 'm1', messages: [{ role: 'user', content: 'Turn #0' }] });
    expect(res.status).toBe(200);
    const json = await res.json();
    expect(json).toMatchObject({
      id: expect.any(String),
      object: 'chat.completion',
      created: expect.any(Number),
      model: 'm1',
      choices: [{ index: 0, message: { role: 'assistant', content: expect.any(String) }, finish_reason: 'stop' }],
      usage: { prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number), total_tokens: expect.any(Number), prompt_tokens_details: { cached_tokens: 0 } },
    });
    expect(server.requests.at(-1)!.body.model).toBe('m1');
  });

  it('counts requests without keeping them when told (benchmarks), numbering them as it would', async () => {
    await using counting = await startFakeLlmServer({ keepRequests: false });
    const body = { model: 'm', messages: [{ role: 'user', content: `${'shared prompt text '.repeat(40)}end` }] };
    const ask = () => fetch(`${counting.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json() as Promise<{ id: string; usage: { prompt_tokens_details: { cached_tokens: number } } }>);
    const first = await ask();
    const second = await ask();
    expect(counting.requestCount).toBe(2);
    expect(counting.requests).toEqual([]);
    expect([first.id, second.id]).toEqual(['chatcmpl-fake-0', 'chatcmpl-fake-1']);
    // The second prompt repeats the first: its shared prefix (the whole prompt) counts as cached, a quarter token a character.
    expect(first.usage.prompt_tokens_details.cached_tokens).toBe(0);
    expect(second.usage.prompt_tokens_details.cached_tokens).toBe(Math.floor(JSON.stringify(body.messages).length / 4));
  });

  it('refuses a wrong key and unknown routes', async () => {
    expect((await post('/v1/chat/completions', { model: 'm', messages: [] }, 'bad')).status).toBe(401);
    expect((await post('/v1/embeddings', {})).status).toBe(404);
  });

  it('plausible replies read allowed actions, seats and limits from prompts without a schema', () => {
    const agent = plausibleReply({ messages: [{ role: 'user', content: 'Turn #0: x said hi\nYou are at Turn #6.\n- "action_type" must be one of: "speak", "leave"' }] });
    expect(JSON.parse(agent)).toEqual({ action_type: 'leave', argument: '' });
    const early = plausibleReply({ messages: [{ role: 'user', content: 'You are at Turn #1.\n- "action_type" must be one of: "non-verbal communication"' }] });
    expect(JSON.parse(early).action_type).toBe('non-verbal communication');
    const script = JSON.parse(plausibleReply({ messages: [{ role: 'user', content: '{"turns": []}\nat most 3 turns\n- "seat" must be one of: "p1", "p2"' }] }));
    expect(script.turns.map((t: { seat: string }) => t.seat)).toEqual(['p1', 'p2', 'p1']);
  });
});
