import { describe, expect, it } from 'vitest';
import { ACTION_TYPES } from '../../../protocol/index.js';
import { sotopiaAction } from './parse-action-sotopia.js';
import { parseAction } from './parse-action.js';

const all = [...ACTION_TYPES];
const read = (content: string) => sotopiaAction(content, all);

describe("an agent's reply read as SOTOPIA's parser read it (--reply-reading code)", () => {
  it('reads the greedy span from the first { to the last }, prose around it, raw line breaks inside strings', () => {
    expect(read('Sure! {"action_type": "speak", "argument": "Hi\nthere"} Hope that helps.')).toEqual({ ok: true, value: { type: 'speak', argument: 'Hi\nthere' }, lenient: false });
    expect(read('```json\n{"action_type": "action", "argument": "waves", "extra": 1}\n```')).toEqual({ ok: true, value: { type: 'action', argument: 'waves' }, lenient: false });
    // A number is written as text (pydantic 1 coerced it); none and leave carry no argument on the wire.
    expect(read('{"action_type": "speak", "argument": 42}')).toMatchObject({ ok: true, value: { argument: '42' } });
    expect(read('{"action_type": "leave", "argument": "bye"}')).toMatchObject({ ok: true, value: { type: 'leave', argument: '' } });
  });

  it("sends to the reformat request what Parley's lenient reading accepts and SOTOPIA's parser did not", () => {
    const unreadable = [
      '{"action_type": "say", "argument": "Hi"}', // a type spelling
      '{"type": "speak", "content": "Hi"}', // other key names
      '{"action_type": "none"}', // no argument for none
      '{"action_type": "speak", "argument": "Hi",}', // a trailing comma
      '{"move": {"action_type": "speak", "argument": "Hi"}}', // wrapped in another object
      'First {"action_type": "speak", "argument": "a"} then {"action_type": "speak", "argument": "b"}', // two objects: the greedy span is not JSON
      'I would like to say hello.',
    ];
    for (const reply of unreadable) expect(read(reply).ok, reply).toBe(false);
    // The first six are read by Parley's lenient reading (`--reply-reading lenient`).
    for (const reply of unreadable.slice(0, 6)) expect(parseAction(reply, all).ok, reply).toBe(true);
    // An object inside an array: the greedy span is the object itself, which SOTOPIA read.
    expect(read('[{"action_type": "speak", "argument": "Hi"}]').ok).toBe(true);
  });

  it('a type the seat is not offered now is unreadable', () => {
    expect(sotopiaAction('{"action_type": "leave", "argument": ""}', ['none', 'speak'])).toMatchObject({ ok: false, reason: expect.stringContaining('not allowed now') });
  });
});
