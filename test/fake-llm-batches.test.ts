import OpenAI, { toFile } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { reply, startFakeLlmServer, type FakeLlmServer } from '../testkit/fake-llm-server.js';

/** The fake server's Batch API through the real `openai` SDK: upload, create, hold, release, output lines. */
let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const line = (id: string, content: string) => JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { model: 'gpt-4', messages: [{ role: 'user', content }] } });

describe('fake server /v1/files + /v1/batches', () => {
  it('holds a batch in progress, then answers every line through the reply functions', async () => {
    server = await startFakeLlmServer({ default: reply.text('hello') });
    server.enqueue(reply.serverError(500));
    const sdk = new OpenAI({ apiKey: 'x', baseURL: server.openaiBaseURL, maxRetries: 0 });
    const file = await sdk.files.create({ file: await toFile(Buffer.from(`${line('a', 'one')}\n${line('b', 'two')}\n`), 'in.jsonl'), purpose: 'batch' });
    server.batches.hold();
    const created = await sdk.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    expect(created.status).toBe('validating');
    for (let i = 0; i < 4; i++) expect((await sdk.batches.retrieve(created.id)).status).toBe('in_progress');
    expect(server.requests).toHaveLength(0);
    server.batches.release();
    const done = await sdk.batches.retrieve(created.id);
    expect(done.status).toBe('completed');
    expect(done.request_counts).toEqual({ total: 2, completed: 1, failed: 1 });
    const out = (await (await sdk.files.content(done.output_file_id!)).text()).trim().split('\n').map((l) => JSON.parse(l));
    expect(out).toHaveLength(1);
    expect(out[0].custom_id).toBe('b');
    expect(out[0].response.body.choices[0].message.content).toBe('hello');
    const errs = (await (await sdk.files.content(done.error_file_id!)).text()).trim().split('\n').map((l) => JSON.parse(l));
    expect(errs.map((e) => [e.custom_id, e.response.status_code])).toEqual([['a', 500]]);
    expect(server.requests.map((r) => r.viaBatch)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
  });

  it('completes after the configured number of status reads when not held, and can expire', async () => {
    server = await startFakeLlmServer({ batchCompleteAfterPolls: 3 });
    const sdk = new OpenAI({ apiKey: 'x', baseURL: server.openaiBaseURL, maxRetries: 0 });
    const file = await sdk.files.create({ file: await toFile(Buffer.from(line('a', 'x')), 'in.jsonl'), purpose: 'batch' });
    const b = await sdk.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    const seen = [];
    for (let i = 0; i < 3; i++) seen.push((await sdk.batches.retrieve(b.id)).status);
    expect(seen).toEqual(['in_progress', 'in_progress', 'completed']);
    const b2 = await sdk.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    server.batches.expireNext();
    expect((await sdk.batches.retrieve(b2.id)).status).toBe('expired');
  });
});
