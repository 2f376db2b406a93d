import { describe, expect, it } from 'vitest';
import { decodeAgentFrame } from './decode.js';
import { ErrorCode } from './codes.js';

const meta = { policy: 'bot', latencyMs: 1 };
const client = { name: 'parley-agent', version: '0.1.0', policy: 'openai:gpt-4', host: 'lab-7' };
const frame = (body: Record<string, unknown>) => JSON.stringify({ v: 1, id: 'f1', ...body });

/**
 * Issue 19 (r01/r02, x01): what a remote agent reports about itself is checked at the edge. Failure codes
 * follow the code grammar; names, versions, policies, hosts and parameter names are one line; free text
 * (messages, moves, parameter values) passes as it is and is escaped where it is shown.
 */
describe('text a remote agent reports, at the edge', () => {
  it('accepts a failure with a code of the grammar and any message', () => {
    expect(decodeAgentFrame(frame({ type: 'turn.fail', turn: 0, error: { code: ErrorCode.PolicyFailed, message: 'line 1\n<b>line 2</b>' }, meta })).ok).toBe(true);
    expect(decodeAgentFrame(frame({ type: 'script.fail', error: { code: 'llm/rate_limited', message: 'x' }, meta })).ok).toBe(true);
  });

  it.each(['policy/x\n<img src=//evil.example/c>', 'policy/failed ', 'Policy/Failed', 'nonamespace', '[x](javascript:alert(1))', 'policy/x\u001b[2J'])('refuses the failure code %j', (code) => {
    for (const type of ['turn.fail', 'script.fail']) {
      const decoded = decodeAgentFrame(frame({ type, ...(type === 'turn.fail' ? { turn: 0 } : {}), error: { code, message: 'm' }, meta }));
      expect(decoded.ok).toBe(false);
      if (!decoded.ok) expect(decoded.code).toBe(ErrorCode.BadFrame);
    }
  });

  it('accepts a plain client and refuses a line break or control character in any of its fields', () => {
    expect(decodeAgentFrame(frame({ type: 'seat.join', token: 't', client })).ok).toBe(true);
    for (const field of ['name', 'version', 'policy', 'host'] as const) {
      for (const bad of ['a\nseat agent1 token FORGED', 'a\rb', 'a\u2028b', 'a\u001b[31mb', 'a\u202eb']) {
        expect(decodeAgentFrame(frame({ type: 'seat.join', token: 't', client: { ...client, [field]: bad } })).ok, `${field} ${JSON.stringify(bad)}`).toBe(false);
      }
    }
  });

  it('refuses a line break in a script turn\'s seat, not in its argument', () => {
    const submit = (seat: string) => decodeAgentFrame(frame({ type: 'script.submit', turns: [{ seat, action: { type: 'speak', argument: 'a\nb' } }], meta }));
    expect(submit('agent1').ok).toBe(true);
    expect(submit('agent1\n# heading <img src=//evil.example/s>').ok).toBe(false);
  });

  it('refuses a line break in meta.policy or a parameter name, not in a parameter value', () => {
    const act = (m: Record<string, unknown>) => decodeAgentFrame(frame({ type: 'turn.act', turn: 0, action: { type: 'speak', argument: 'hi\nthere' }, meta: { ...meta, ...m } }));
    expect(act({ params: { stop: ['\n'], temperature: 0.7 } }).ok).toBe(true);
    expect(act({ policy: 'bot\n# heading' }).ok).toBe(false);
    expect(act({ params: { 'stop\n<img>': 1 } }).ok).toBe(false);
  });
});
