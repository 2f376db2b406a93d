import { describe, expect, it } from 'vitest';
import { reply } from '../../testkit/fake-llm-server.js';
import { fakeLlmClientSuite } from '../helpers/fake-llm-suite.js';
import { createClient, resetStructuredMemory } from '../../llm/index.js';
import { leniently, withSchemaInPrompt } from '../../llm/structured-ladder.js';
import type { ChatRequest } from '../../llm/types.js';

const SCHEMA = {
  name: 'sotopia_eval',
  schema: { type: 'object', properties: { score: { type: 'integer', minimum: 0, maximum: 10 } }, required: ['score'], additionalProperties: false },
};
const REQ: ChatRequest = { messages: [{ role: 'user', content: 'Rate it.' }], json: SCHEMA, temperature: 0 };

const fake = fakeLlmClientSuite({
  rejectResponseFormat: true,
  beforeEach: (server) => {
    resetStructuredMemory();
    server.setDefault(reply.plausible());
  },
});

describe('structured-output ladder against a server that rejects every response_format (as gpt-4-0613)', () => {
  it.each(['openai:gpt-4-0613', 'mistral:m'])('%s: schema → JSON mode → schema in the prompt, then remembered for the model', async (spec) => {
    const first = await createClient({ spec }, { env: fake.env }).chat(REQ);
    expect(JSON.parse(first.content)).toEqual({ score: 5 });
    const start = spec.startsWith('openai') ? ['json_schema', 'json_object'] : ['json_object'];
    expect(first.structured).toEqual({ mode: 'prompt', rejected: start.length, fallback: true });
    // A new client for the same model (a later episode in this process) starts on the learned rung.
    const second = await createClient({ spec }, { env: fake.env }).chat(REQ);
    expect(second.structured).toEqual({ mode: 'prompt', rejected: 0, fallback: true });
    expect(fake.server.requests.map((r) => r.body.response_format?.type ?? 'none')).toEqual([...start, 'none', 'none']);
    const prompt = fake.server.requests.at(-1)!.body.messages!.at(-1)!.content as string;
    expect(prompt).toContain('"sotopia_eval"');
    expect(prompt).toContain(JSON.stringify(SCHEMA.schema));
  });

  it('parses a decorated prompt-rung reply leniently; an unreadable one is passed on unchanged', async () => {
    fake.server.setDefault(reply.text('Sure! ```json\n{"score": 7,}\n``` hope that helps'));
    const res = await createClient({ spec: 'openai:gpt-4-0613' }, { env: fake.env }).chat(REQ);
    expect(res.content).toBe('{"score":7}');
    expect(leniently('no json here')).toBe('no json here');
  });

  it('a request without a schema, or a client set to off, is sent as is and not counted', async () => {
    const plain = await createClient({ spec: 'openai:gpt-4-0613' }, { env: fake.env }).chat({ messages: REQ.messages });
    expect(plain.structured).toBeUndefined();
    const off = await createClient({ spec: 'openai:gpt-4-0613', params: { structuredOutput: 'off' } }, { env: fake.env }).chat(REQ);
    expect(off.structured).toBeUndefined();
    expect(fake.server.requests.every((r) => r.body.response_format === undefined)).toBe(true);
    expect(fake.server.requests[1]!.body.messages).toHaveLength(1);
  });

  it('a 400 that is not about the response format is not a fallback', async () => {
    fake.server.setDefault({ kind: 'status', status: 400, message: 'context length exceeded' });
    await expect(createClient({ spec: 'openai:gpt-4-0613', params: { structuredOutput: 'prompt' } }, { env: fake.env }).chat(REQ)).rejects.toThrow(/HTTP 400/);
    expect(fake.server.requests).toHaveLength(1);
  });

  it('withSchemaInPrompt appends one instruction and leaves the rest alone', () => {
    const out = withSchemaInPrompt(REQ);
    expect(out.messages.slice(0, -1)).toEqual(REQ.messages);
    expect(out.messages).toHaveLength(2);
  });
});
