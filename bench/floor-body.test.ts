import { describe, expect, it } from 'vitest';
import { floorBody, REAL_BODY_BYTES } from './floor-body.js';

describe('floor seat request body', () => {
  it('is JSON as long as the real request at each turn, the conversation inside it', () => {
    let said = '';
    for (let turn = 0; turn < REAL_BODY_BYTES.length; turn++) {
      const body = floorBody('bench-model', turn, 'seat agent1 of e1', said);
      expect(Buffer.byteLength(body)).toBe(REAL_BODY_BYTES[turn]);
      const parsed = JSON.parse(body) as { messages: { content: string }[]; response_format: { json_schema: { name: string } } };
      expect(parsed.messages[1]!.content).toContain(said);
      expect(parsed.response_format.json_schema.name).toBe('parley_action');
      said += `Turn #${turn}: agent1 said: "a \\"quoted\\" line"\n`;
    }
  });
});
