import { describe, expect, it } from 'vitest';
import { parseMindread, readsMind } from './mindread.js';
import { MindreadGraph } from './mindread.js';
import { seatIdProblem, SeatId } from './seat-id.js';

describe('seat ids (issue 35: prototype names)', () => {
  it('refuses every name a plain object already has, and keeps the grammar', () => {
    for (const id of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) expect(seatIdProblem(id)).toMatch(/reserved/);
    for (const id of ['agent1', 'buyer', 'Constructor', 'proto']) expect(seatIdProblem(id)).toBeNull();
    expect(seatIdProblem('a/b')).toMatch(/letters, digits/);
    expect(SeatId.safeParse('__proto__').success).toBe(false);
  });

  it('a mindreading map is keyed without a prototype: no seat reads through an inherited member', () => {
    const parsed = parseMindread('agent1<-agent2');
    expect(parsed.ok && parsed.graph && Object.getPrototypeOf(parsed.graph)).toBeNull();
    const graph = parsed.ok ? parsed.graph! : {};
    expect(readsMind(graph, 'constructor', 'agent2')).toBe(false);
    expect(readsMind(graph, 'agent1', 'agent2')).toBe(true);
    // A recorded map (run.json is untrusted) with a prototype name as reader is refused by its schema.
    expect(MindreadGraph.safeParse(JSON.parse('{"constructor":["agent1"]}')).success).toBe(false);
  });
});
