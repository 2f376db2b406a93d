import { describe, expect, it } from 'vitest';
import { jsonPrefix, messageListJson, prefixedMessage } from './json-prefix.js';
import type { ChatMessage } from './types.js';

const head = `# Situation\n${'a kitchen, late; "quoted" \\ back\tslash\u0001 é 😀 \u2028; '.repeat(40)}\n`;

describe('messages whose content starts with a steady prefix (llm/json-prefix.ts)', () => {
  it('writes what JSON.stringify writes, the prefix marked or not, whatever the rest', () => {
    const prefix = jsonPrefix(head);
    for (const rest of ['', 'Turn #1: "hi"\n', '\ud83d\ude00 pair', '\udc00 lone low', 'x'.repeat(3000)]) {
      const messages: ChatMessage[] = [prefixedMessage('system', jsonPrefix('You play Alice.'), ''), prefixedMessage('user', prefix, rest)];
      expect(messages[1]!.content).toBe(head + rest);
      expect(messageListJson(messages)).toBe(JSON.stringify(messages));
    }
  });

  it('serialises a message whole once its content changed, and any list it cannot write itself as JSON.stringify does', () => {
    const m = prefixedMessage('user', jsonPrefix(head), 'now');
    const list: ChatMessage[] = [m];
    const marked = messageListJson(list);
    m.content = `${head}later`;
    expect(messageListJson(list)).toBe(JSON.stringify(list));
    expect(messageListJson(list)).not.toBe(marked);
    m.content = `changed ${head}`;
    expect(messageListJson(list)).toBe(JSON.stringify(list));
    const odd: unknown[] = [
      [prefixedMessage('user', jsonPrefix(head), 'x'), { content: 'keys in another order', role: 'user' }],
      [prefixedMessage('user', jsonPrefix(head), 'x'), { role: 'user', content: 'extra', name: 'bob' }],
      [prefixedMessage('user', jsonPrefix(head), 'x'), undefined],
      [prefixedMessage('user', jsonPrefix(head), 'x'), { role: 'user', content: 'own toJSON', toJSON: () => 'j' }],
    ];
    for (const messages of odd) expect(messageListJson(messages as ChatMessage[])).toBe(JSON.stringify(messages));
  });

  it('does not mark a message whose prefix ends in half a surrogate pair', () => {
    const half = prefixedMessage('user', jsonPrefix('a\ud83d'), '\ude00b');
    expect(Object.getOwnPropertySymbols(half)).toEqual([]);
    expect(messageListJson([half])).toBe(JSON.stringify([half]));
    // The mark is invisible: spreads, keys and JSON see the two fields only.
    const marked = prefixedMessage('user', jsonPrefix(head), 'x');
    expect(Object.getOwnPropertySymbols(marked)).toHaveLength(1);
    expect(Object.keys({ ...marked })).toEqual(['role', 'content']);
    expect(Object.getOwnPropertySymbols({ ...marked })).toEqual([]);
  });
});
