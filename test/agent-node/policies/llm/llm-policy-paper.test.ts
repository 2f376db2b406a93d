import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { PolicyConfig } from '../../../../protocol/index.js';
import { reply, startFakeLlmServer, type FakeLlmServer } from '../../../../testkit/fake-llm-server.js';
import { createLlmPolicy } from '../../../../agent-node/policies/llm/index.js';
import { aliceView, scriptRequest, turnRequest } from '../../../../agent-node/policies/llm/test-views.js';

let server: FakeLlmServer;
const signal = () => new AbortController().signal;
const policy = () => createLlmPolicy(PolicyConfig.parse({ spec: 'openai:gpt-3.5-turbo' }));
const paperScript = () => ({ ...scriptRequest(20), protocol: { name: 'paper' as const, backgrounds: 'code' as const, scriptFormat: 'text' as const } });

beforeAll(async () => {
  server = await startFakeLlmServer();
  for (const [k, v] of Object.entries(server.env())) vi.stubEnv(k, v);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
  server.setDefault(reply.plausible());
});

describe('LLM policy under --protocol paper', () => {
  it('an agent gets the paper prompt (one user message, both names, the partner\'s goal unknown)', async () => {
    const view = aliceView();
    view.welcome.protocol = { name: 'paper', backgrounds: 'code', scriptFormat: 'text' };
    const r = await (await policy()).act(view, turnRequest(0), signal());
    expect(r.ok).toBe(true);
    const messages = server.requests[0]!.body.messages!;
    expect(messages.map((m) => m.role)).toEqual(['user']);
    expect(String(messages[0]!.content)).toContain('Participants: Alice Chen and Bob Lee');
    expect(String(messages[0]!.content)).toContain("Bob Lee's goal: Unknown");
    // S1: no constrained decoding; the JSON format instructions are in that one user message.
    expect(server.requests[0]!.body.response_format).toBeUndefined();
    expect(String(messages[0]!.content)).toContain('"action_type"');
  });

  it('under --protocol parley the structured ladder still asks for a JSON schema', async () => {
    const r = await (await policy()).act(aliceView(), turnRequest(0), signal());
    expect(r.ok).toBe(true);
    expect((server.requests[0]!.body.response_format as { type?: string } | undefined)?.type).toBe('json_schema');
  });

  it('the script writer asks for free text (no JSON format) and parses the script into turns', async () => {
    server.enqueue(reply.text('Turn #0\nAlice Chen said: "Music off, please."\nTurn #1\nBob Lee left the conversation'));
    const r = await (await policy()).writeScript!(paperScript(), signal());
    expect(r).toMatchObject({ ok: true, turns: [{ seat: 'A', action: { type: 'speak', argument: 'Music off, please.' } }, { seat: 'B', action: { type: 'leave', argument: '' } }] });
    expect(server.requests[0]!.body.response_format).toBeUndefined();
  });

  it('an unparsable script gets one reformat request, then is an explicit error — never an empty dialogue', async () => {
    server.enqueue(reply.text('INT. KITCHEN. They argue.'), reply.text('Still not a script.'));
    const r = await (await policy()).writeScript!(paperScript(), signal());
    expect(r).toMatchObject({ ok: false, error: { code: 'policy/unparsable', message: expect.stringContaining('no turns found') }, meta: { repairs: { reformat: 1 } } });
    expect(server.requests).toHaveLength(2);
    expect(String(server.requests[1]!.body.messages!.at(-1)!.content)).toContain('Turn #0');
  });
});
