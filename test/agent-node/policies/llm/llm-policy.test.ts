import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PolicyConfig, type PolicyConfigInput } from '../../../../protocol/index.js';
import { readCassette } from '../../../../llm/index.js';
import { reply } from '../../../../testkit/fake-llm-server.js';
import { fakeLlmClientSuite } from '../../../helpers/fake-llm-suite.js';
import { createLlmPolicy } from '../../../../agent-node/policies/llm/index.js';
import { ALICE_GOAL, BOB_GOAL, aliceView, event, scriptRequest, turnRequest } from '../../../../agent-node/policies/llm/test-views.js';

let dir: string;
const signal = () => new AbortController().signal;
const userText = (n: number) => (fake.server.requests[n]!.body.messages ?? []).map((m) => String(m.content)).join('\n');

const fake = fakeLlmClientSuite({ stubEnv: true, beforeEach: (server) => server.setDefault(reply.plausible()) });
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'parley-llm-policy-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const policy = (input: PolicyConfigInput) => createLlmPolicy(PolicyConfig.parse(input));

describe.each(['openai:gpt-3.5-turbo', 'mistral:open-mixtral-8x7b'])('%s agent policy', (spec) => {
  it('plays a move and reports provider, model, params (temperature 0.7), usage and retries', async () => {
    fake.server.enqueue(reply.rateLimited('0'), reply.text('{"action_type":"speak","argument":"Could you keep it down?"}', { usage: { prompt: 300, completion: 12, cached: 256 } }));
    const p = await policy({ spec });
    const r = await p.act(aliceView(), turnRequest(0), signal());
    expect(r).toMatchObject({ ok: true, action: { type: 'speak', argument: 'Could you keep it down?' } });
    const [provider, model] = spec.split(':');
    expect(r.meta).toMatchObject({ policy: spec, provider, model, params: { temperature: 0.7 }, usage: { prompt: 300, completion: 12, cached: 256 }, repairs: { lenient: 0, reformat: 0 }, retries: 1 });
    expect(fake.server.requests[1]!.body.temperature).toBe(0.7);
    expect(userText(1)).toContain(ALICE_GOAL);
    expect(userText(1)).not.toContain(BOB_GOAL);
  });

  it('repairs a wrong-shaped reply leniently, without another request', async () => {
    fake.server.enqueue(reply.text('```json\n{"action": "non-verbal", "content": "shrugs"}\n```'));
    const r = await (await policy({ spec })).act(aliceView(), turnRequest(0), signal());
    expect(r).toMatchObject({ ok: true, action: { type: 'non-verbal communication', argument: 'shrugs' }, meta: { repairs: { lenient: 1, reformat: 0 } } });
    expect(fake.server.requests).toHaveLength(1);
  });

  it('asks once to reformat a reply that is not JSON, showing the model its reply', async () => {
    fake.server.enqueue(reply.text('I think I will say hello.'), reply.text('{"action_type":"speak","argument":"Hello"}', { usage: { prompt: 10, completion: 5, cached: 0 } }));
    const r = await (await policy({ spec })).act(aliceView(), turnRequest(0), signal());
    expect(r).toMatchObject({ ok: true, action: { type: 'speak', argument: 'Hello' }, meta: { repairs: { lenient: 0, reformat: 1 } } });
    expect(fake.server.requests).toHaveLength(2);
    const msgs = fake.server.requests[1]!.body.messages!;
    expect(msgs.at(-2)).toMatchObject({ role: 'assistant', content: 'I think I will say hello.' });
    expect(String(msgs.at(-1)!.content)).toContain('could not be used');
    expect(r.meta.usage!.completion).toBeGreaterThan(5); // both calls counted
  });

  it('records a hopeless reply as an explicit policy/unparsable error, never a none', async () => {
    fake.server.enqueue(reply.text('no idea'), reply.text('still no JSON'), reply.text('never asked'));
    const r = await (await policy({ spec })).act(aliceView(), turnRequest(0), signal());
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('policy/unparsable');
    expect(r.error.message).toContain('still no JSON');
    expect(r.meta.repairs).toEqual({ lenient: 0, reformat: 1 });
    expect(fake.server.requests).toHaveLength(2);
  });

  it('surfaces a failed LLM call as the llm/* code on the move', async () => {
    fake.server.enqueue({ kind: 'status', status: 401, message: 'bad key' });
    const r = await (await policy({ spec })).act(aliceView(), turnRequest(0), signal());
    expect(r).toMatchObject({ ok: false, error: { code: 'llm/http_error' } });
  });
});

describe('script writer', () => {
  it('writes the whole dialogue in one request, parsed into seat-tagged turns', async () => {
    const p = await policy({ spec: 'openai:gpt-3.5-turbo' });
    const r = await p.writeScript!(scriptRequest(6), signal());
    expect(fake.server.requests).toHaveLength(1);
    expect(fake.server.requests[0]!.body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'parley_script' } });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.turns.length).toBeGreaterThan(0);
    expect(r.turns.length).toBeLessThanOrEqual(6);
    expect(r.turns.map((t) => t.seat)).toEqual(['A', 'B', 'A', 'B']);
    expect(r.meta).toMatchObject({ provider: 'openai', model: 'gpt-3.5-turbo', repairs: { lenient: 0, reformat: 0 } });
  });

  it('gets one reformat request for an unreadable script, then an explicit error', async () => {
    fake.server.enqueue(reply.text('Alice: hi\nBob: hello'), reply.text('{"turns": [{"seat": "A", "action_type": "speak", "argument": "hi"}]}'));
    const fixed = await (await policy({ spec: 'mistral:open-mixtral-8x7b' })).writeScript!(scriptRequest(), signal());
    expect(fixed).toMatchObject({ ok: true, turns: [{ seat: 'A', action: { type: 'speak', argument: 'hi' } }], meta: { repairs: { reformat: 1 } } });
    expect(fake.server.requests).toHaveLength(2);

    fake.server.requests.length = 0;
    fake.server.enqueue(reply.text('Alice: hi'), reply.text('Bob: hello'));
    const failed = await (await policy({ spec: 'openai:gpt-3.5-turbo' })).writeScript!(scriptRequest(), signal());
    expect(failed).toMatchObject({ ok: false, error: { code: 'policy/unparsable' }, meta: { repairs: { reformat: 1 } } });
    expect(fake.server.requests).toHaveLength(2);
  });
});

describe('cassettes through the policy', () => {
  it('records every call per episode and seat; a replay reproduces the moves with the server stopped', async () => {
    const cassetteDir = join(dir, 'cassettes');
    fake.server.enqueue(reply.text('not json'), reply.text('{"action_type":"speak","argument":"First"}'));
    const live = await policy({ spec: 'openai:gpt-3.5-turbo', cassetteDir });
    const moves = [
      await live.act(aliceView(), turnRequest(0), signal()),
      await live.act(aliceView('agents', [event(0, 'A', 'speak', 'First'), event(1, 'B', 'speak', 'Hm?')]), turnRequest(2), signal()),
    ];
    const script = await live.writeScript!(scriptRequest(), signal());
    expect(readdirSync(cassetteDir).sort()).toEqual(['ep-test-1', 'ep-test-script']);
    expect(readCassette(join(cassetteDir, 'ep-test-1', 'A.jsonl'))).toHaveLength(3); // 2 for the repaired move + 1
    expect(readCassette(join(cassetteDir, 'ep-test-script', 'script.jsonl'))).toHaveLength(1);

    await fake.whileStopped(async () => {
      const replay = await policy({ spec: 'openai:gpt-3.5-turbo', replayDir: dir, cassetteDir: join(dir, 'replayed') });
      const again = [
        await replay.act(aliceView(), turnRequest(0), signal()),
        await replay.act(aliceView('agents', [event(0, 'A', 'speak', 'First'), event(1, 'B', 'speak', 'Hm?')]), turnRequest(2), signal()),
      ];
      const scriptAgain = await replay.writeScript!(scriptRequest(), signal());
      expect(JSON.stringify(again.map((m) => (m.ok ? m.action : m.error)))).toBe(JSON.stringify(moves.map((m) => (m.ok ? m.action : m.error))));
      expect(again.map((m) => [m.meta.usage, m.meta.repairs, m.meta.provider, m.meta.model])).toEqual(moves.map((m) => [m.meta.usage, m.meta.repairs, m.meta.provider, m.meta.model]));
      expect(JSON.stringify(scriptAgain.ok && scriptAgain.turns)).toBe(JSON.stringify(script.ok && script.turns));
      // The replay records too, so a replayed run can itself be replayed.
      expect(readCassette(join(dir, 'replayed', 'ep-test-1', 'A.jsonl'))).toHaveLength(3);

      // A diverging conversation is an explicit error on the move.
      const diverged = await (await policy({ spec: `replay:${dir}` })).act(aliceView('agents', [event(0, 'A', 'speak', 'Other')]), turnRequest(1), signal());
      expect(diverged).toMatchObject({ ok: false, error: { code: 'llm/replay_mismatch' } });
    });
  });
});

describe('createLlmPolicy', () => {
  it('fails fast on a missing key (named), a bad spec and a broken template directory', async () => {
    await expect(policy({ spec: 'openai:gpt-4', apiKeyEnv: 'PARLEY_NO_SUCH_KEY' })).rejects.toThrow(/PARLEY_NO_SUCH_KEY/);
    await expect(policy({ spec: 'claude:x' })).rejects.toMatchObject({ code: 'llm/bad_spec' });
    await expect(policy({ spec: 'openai:gpt-4', promptDir: join(dir, 'nope') })).rejects.toThrow(/does not exist/);
    // Replays need no key.
    await expect(policy({ spec: 'openai:gpt-4', apiKeyEnv: 'PARLEY_NO_SUCH_KEY', replayDir: dir })).resolves.toBeTruthy();
  });
});
