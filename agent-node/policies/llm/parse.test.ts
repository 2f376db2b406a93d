import { describe, expect, it } from 'vitest';
import { ACTION_TYPES } from '../../../protocol/index.js';
import { parseAction } from './parse-action.js';
import { parseScript } from './parse-script.js';
import { scriptRequest } from './test-views.js';

const ALL = [...ACTION_TYPES];

describe('parseAction', () => {
  it('reads the exact shape strictly', () => {
    expect(parseAction('{"action_type":"speak","argument":"Hi!"}', ALL)).toEqual({ ok: true, value: { type: 'speak', argument: 'Hi!' }, lenient: false });
    expect(parseAction(' {"action_type":"leave","argument":"bye"} ', ALL)).toEqual({ ok: true, value: { type: 'leave', argument: '' }, lenient: false });
  });

  it.each([
    ['code fence', '```json\n{"action_type":"speak","argument":"Hi"}\n```', { type: 'speak', argument: 'Hi' }],
    ['prose around', 'Sure! Here is my move: {"action_type": "speak", "argument": "Hi"} Hope that helps.', { type: 'speak', argument: 'Hi' }],
    ['synonym keys', '{"action": "speak", "content": "Hi"}', { type: 'speak', argument: 'Hi' }],
    ['type key', '{"type": "say", "text": "Hi"}', { type: 'speak', argument: 'Hi' }],
    ['non-verbal', '{"action_type": "non-verbal", "argument": "smiles"}', { type: 'non-verbal communication', argument: 'smiles' }],
    ['underscored', '{"action_type": "NON_VERBAL_COMMUNICATION", "argument": "nods"}', { type: 'non-verbal communication', argument: 'nods' }],
    ['left the conversation', '{"action_type": "left the conversation"}', { type: 'leave', argument: '' }],
    ['wrapped', '{"action": {"action_type": "speak", "argument": "Hi"}}', { type: 'speak', argument: 'Hi' }],
    ['trailing comma', '{"action_type": "speak", "argument": "Hi",}', { type: 'speak', argument: 'Hi' }],
    ['extra keys', '{"action_type": "speak", "argument": "Hi", "thought": "be nice"}', { type: 'speak', argument: 'Hi' }],
    // langchain's json.loads(strict=False) read SOTOPIA's replies with raw line breaks inside strings.
    ['raw line break in a string', '{"action_type": "speak", "argument": "Hi.\nHow are you?\t"}', { type: 'speak', argument: 'Hi.\nHow are you?\t' }],
  ])('repairs leniently: %s', (_, content, action) => {
    expect(parseAction(content, ALL)).toEqual({ ok: true, value: action, lenient: true });
  });

  it('fails (for a reformat request) on text without JSON, unknown types, disallowed types and missing arguments', () => {
    expect(parseAction('I would like to say hello.', ALL)).toMatchObject({ ok: false, reason: expect.stringContaining('not valid JSON') });
    expect(parseAction('{"action_type":"dance","argument":"x"}', ALL)).toMatchObject({ ok: false });
    expect(parseAction('{"action_type":"leave","argument":""}', ['speak'])).toMatchObject({ ok: false });
    expect(parseAction('{"action_type":"speak"}', ALL)).toMatchObject({ ok: false });
  });
});

describe('parseScript', () => {
  const req = scriptRequest(4);
  it('reads the exact shape strictly into seat-tagged turns', () => {
    const content = JSON.stringify({ turns: [{ seat: 'A', action_type: 'speak', argument: 'Hey' }, { seat: 'B', action_type: 'leave', argument: '' }] });
    expect(parseScript(content, req)).toEqual({
      ok: true,
      lenient: false,
      value: [{ seat: 'A', action: { type: 'speak', argument: 'Hey' } }, { seat: 'B', action: { type: 'leave', argument: '' } }],
    });
  });

  it('maps speaker names, other list keys and type spellings; cuts to max turns', () => {
    const lines = Array.from({ length: 6 }, (_, i) => ({ speaker: i % 2 ? 'Bob' : 'Alice Chen', type: 'say', text: `line ${i}` }));
    const parsed = parseScript(`\`\`\`json\n${JSON.stringify({ dialogue: lines })}\n\`\`\``, req);
    expect(parsed).toMatchObject({ ok: true, lenient: true });
    if (!parsed.ok) return;
    expect(parsed.value).toHaveLength(4);
    expect(parsed.value.map((t) => t.seat)).toEqual(['A', 'B', 'A', 'B']);
    expect(parsed.value[1]!.action).toEqual({ type: 'speak', argument: 'line 1' });
  });

  it('fails on unknown speakers and text without JSON', () => {
    expect(parseScript(JSON.stringify({ turns: [{ seat: 'Carol', action_type: 'speak', argument: 'x' }] }), req)).toMatchObject({ ok: false, reason: expect.stringContaining('Carol') });
    expect(parseScript('Alice: hi\nBob: hello', req)).toMatchObject({ ok: false });
  });
});
