import { describe, expect, it } from 'vitest';
import { PolicyConfig } from '../../../../protocol/index.js';
import { reply } from '../../../../testkit/fake-llm-server.js';
import { fakeLlmClientSuite } from '../../../helpers/fake-llm-suite.js';
import { createLlmPolicy } from '../../../../agent-node/policies/llm/index.js';
import { aliceView, scriptRequest, turnRequest } from '../../../../agent-node/policies/llm/test-views.js';

const signal = () => new AbortController().signal;
const policy = () => createLlmPolicy(PolicyConfig.parse({ spec: 'openai:gpt-3.5-turbo' }));
const paperScript = () => ({ ...scriptRequest(20), protocol: { name: 'paper' as const, backgrounds: 'code' as const, scriptFormat: 'text' as const } });

const fake = fakeLlmClientSuite({ stubEnv: true, beforeEach: (server) => server.setDefault(reply.plausible()) });

describe('LLM policy under --protocol paper', () => {
  it('an agent gets the paper prompt (one user message, both names, the partner\'s goal unknown)', async () => {
    const view = aliceView();
    view.welcome.protocol = { name: 'paper', backgrounds: 'code', scriptFormat: 'text' };
    const r = await (await policy()).act(view, turnRequest(0), signal());
    expect(r.ok).toBe(true);
    const messages = fake.server.requests[0]!.body.messages!;
    expect(messages.map((m) => m.role)).toEqual(['user']);
    expect(String(messages[0]!.content)).toContain('Participants: Alice Chen and Bob Lee');
    expect(String(messages[0]!.content)).toContain("Bob Lee's goal: Unknown");
    // S1: no constrained decoding; the JSON format instructions are in that one user message.
    expect(fake.server.requests[0]!.body.response_format).toBeUndefined();
    expect(String(messages[0]!.content)).toContain('"action_type"');
  });

  it("samples at the temperature its welcome tells an agent (SOTOPIA's code: 1.0) unless its policy names one; the script writer stays at 0.7", async () => {
    const view = aliceView();
    view.welcome.protocol = { name: 'paper', backgrounds: 'code', scriptFormat: 'text', agentTemperature: 1 };
    const told = await (await policy()).act(view, turnRequest(0), signal());
    // The temperature applied is the one the turn's meta records.
    expect(told).toMatchObject({ ok: true, meta: { params: { temperature: 1 } } });
    const own = await (await createLlmPolicy(PolicyConfig.parse({ spec: 'openai:gpt-3.5-turbo', params: { temperature: 0.3 } }))).act(view, turnRequest(0), signal());
    expect(own).toMatchObject({ ok: true, meta: { params: { temperature: 0.3 } } });
    fake.server.enqueue(reply.text('Turn #0\nAlice Chen said: "Hi."'));
    expect((await (await policy()).writeScript!({ ...paperScript(), protocol: { ...view.welcome.protocol } }, signal())).ok).toBe(true);
    expect(fake.server.requests.map((q) => q.body.temperature)).toEqual([1, 0.3, 0.7]);
  });

  it('under --protocol parley the structured ladder still asks for a JSON schema', async () => {
    const r = await (await policy()).act(aliceView(), turnRequest(0), signal());
    expect(r.ok).toBe(true);
    expect((fake.server.requests[0]!.body.response_format as { type?: string } | undefined)?.type).toBe('json_schema');
  });

  it('the script writer asks for free text (no JSON format) and parses the script into turns', async () => {
    fake.server.enqueue(reply.text('Turn #0\nAlice Chen said: "Music off, please."\nTurn #1\nBob Lee left the conversation'));
    const r = await (await policy()).writeScript!(paperScript(), signal());
    expect(r).toMatchObject({ ok: true, turns: [{ seat: 'A', action: { type: 'speak', argument: 'Music off, please.' } }, { seat: 'B', action: { type: 'leave', argument: '' } }] });
    expect(fake.server.requests[0]!.body.response_format).toBeUndefined();
  });

  it('an unparsable script gets one reformat request in SOTOPIA\'s shape to the reformat model, then an explicit policy/unparsable failure', async () => {
    fake.server.enqueue(reply.text('INT. KITCHEN. They argue.'), reply.text('Still not a script.'));
    const r = await (await createLlmPolicy(PolicyConfig.parse({ spec: 'openai:gpt-4-0613' }))).writeScript!(paperScript(), signal());
    // The policy reports the failure; the orchestrator's --on-unparsable decides what becomes of it.
    expect(r).toMatchObject({ ok: false, error: { code: 'policy/unparsable', message: expect.stringContaining('no turns found') }, meta: { repairs: { reformat: 1 }, reformatModel: 'openai:gpt-3.5-turbo' } });
    expect(fake.server.requests).toHaveLength(2);
    const fix = fake.server.requests[1]!.body;
    expect(fix.model).toBe('gpt-3.5-turbo');
    expect(fix.messages!.map((m) => m.role)).toEqual(['user']);
    const text = String(fix.messages![0]!.content);
    expect(text).toContain('INT. KITCHEN. They argue.');
    expect(text).toContain('Alice Chen and Bob Lee');
    expect(text).toContain('Turn #x');
    expect(text).not.toContain('Context of the interaction');
  });
});

describe('an agent\'s unreadable reply under --protocol paper (issue 20, request shape)', () => {
  const paperView = () => {
    const view = aliceView();
    view.welcome.protocol = { name: 'paper', backgrounds: 'code', scriptFormat: 'text' };
    return view;
  };

  it('gets one fresh reformat request (only the unreadable text and the format) sent to SOTOPIA\'s gpt-3.5-turbo, then policy/unparsable', async () => {
    fake.server.enqueue(reply.text('Alice smiles and says hello warmly.'), reply.text('She says hello.'));
    const r = await (await createLlmPolicy(PolicyConfig.parse({ spec: 'openai:gpt-4-0613' }))).act(paperView(), turnRequest(0), signal());
    expect(r).toMatchObject({ ok: false, error: { code: 'policy/unparsable' }, meta: { model: 'gpt-4-0613', repairs: { lenient: 0, reformat: 1 }, reformatModel: 'openai:gpt-3.5-turbo' } });
    expect(fake.server.requests.map((q) => q.body.model)).toEqual(['gpt-4-0613', 'gpt-3.5-turbo']);
    const fix = fake.server.requests[1]!.body;
    expect(fix.messages!.map((m) => m.role)).toEqual(['user']);
    expect(fix.response_format).toBeUndefined();
    expect(fix.temperature).toBe(0.7);
    const text = String(fix.messages![0]!.content);
    expect(text).toContain('Text: Alice smiles and says hello warmly.');
    expect(text).toContain('"action_type"');
    // Nothing of the conversation or the character: SOTOPIA's reformat request carried neither.
    expect(text).not.toContain('Bob Lee');
  });

  it('a reformat that parses gives the move, and the meta names the model that reformatted it', async () => {
    fake.server.enqueue(reply.text('Hello there, says Alice.'), reply.json({ action_type: 'speak', argument: 'Hello there.' }));
    const r = await (await createLlmPolicy(PolicyConfig.parse({ spec: 'openai:gpt-4-0613' }))).act(paperView(), turnRequest(0), signal());
    expect(r).toMatchObject({ ok: true, action: { type: 'speak', argument: 'Hello there.' }, meta: { reformatModel: 'openai:gpt-3.5-turbo' } });
  });

  it('--reformat-model (PolicyConfig.reformat) picks the model and its sampling', async () => {
    fake.server.enqueue(reply.text('prose'), reply.text('more prose'));
    const config = PolicyConfig.parse({ spec: 'openai:gpt-3.5-turbo-0613', reformat: { spec: 'openai:my-fixer', params: { temperature: 0 } } });
    const r = await (await createLlmPolicy(config)).act(paperView(), turnRequest(0), signal());
    expect(r).toMatchObject({ ok: false, meta: { reformatModel: 'openai:my-fixer' } });
    expect(fake.server.requests.map((q) => [q.body.model, q.body.temperature])).toEqual([['gpt-3.5-turbo-0613', 0.7], ['my-fixer', 0]]);
  });

  it("--reply-reading code: a reply only Parley's lenient reading accepts goes to the reformat request, as SOTOPIA's parser sent it", async () => {
    const say = () => reply.json({ action_type: 'say', argument: 'Hello there.' });
    fake.server.enqueue(say(), reply.json({ action_type: 'speak', argument: 'Hello there.' }), say());
    const code = paperView();
    code.welcome.protocol = { ...code.welcome.protocol!, replyReading: 'code' };
    const asCode = await (await createLlmPolicy(PolicyConfig.parse({ spec: 'openai:gpt-4-0613' }))).act(code, turnRequest(0), signal());
    expect(asCode).toMatchObject({ ok: true, action: { type: 'speak' }, meta: { repairs: { lenient: 0, reformat: 1 }, reformatModel: 'openai:gpt-3.5-turbo' } });
    const lenient = paperView();
    lenient.welcome.protocol = { ...lenient.welcome.protocol!, replyReading: 'lenient' };
    const asLenient = await (await createLlmPolicy(PolicyConfig.parse({ spec: 'openai:gpt-4-0613' }))).act(lenient, turnRequest(0), signal());
    expect(asLenient).toMatchObject({ ok: true, action: { type: 'speak' }, meta: { repairs: { lenient: 1, reformat: 0 } } });
    expect(fake.server.requests.map((q) => q.body.model)).toEqual(['gpt-4-0613', 'gpt-3.5-turbo', 'gpt-4-0613']);
  });

  it('no reformat request when the first reply reads', async () => {
    const r = await (await createLlmPolicy(PolicyConfig.parse({ spec: 'openai:gpt-4-0613' }))).act(paperView(), turnRequest(0), signal());
    expect(r.ok).toBe(true);
    expect(fake.server.requests).toHaveLength(1);
    expect(r.meta.reformatModel).toBeUndefined();
  });
});
