import { describe, expect, it } from 'vitest';
import { mindreadKey, parseMindread, readsMind } from './mindread.js';

describe('--mindread', () => {
  it("parses 'all' as no graph, and a directed map", () => {
    expect(parseMindread('all')).toEqual({ ok: true, graph: null });
    const r = parseMindread(' agent1<-agent3, agent2 ; agent2<-agent1 ');
    expect(r).toEqual({ ok: true, graph: { agent1: ['agent2', 'agent3'], agent2: ['agent1'] } });
    if (!r.ok || !r.graph) throw new Error('parse failed');
    expect(mindreadKey(r.graph)).toBe('agent1<-agent2,agent3;agent2<-agent1');
    expect(readsMind(r.graph, 'agent1', 'agent3')).toBe(true);
    expect(readsMind(r.graph, 'agent3', 'agent1')).toBe(false);
    expect(readsMind(undefined, 'agent3', 'agent1')).toBe(true);
  });

  it('refuses malformed maps with one clear message', () => {
    expect(parseMindread('agent1')).toMatchObject({ ok: false, message: expect.stringContaining("no '<-'") });
    expect(parseMindread('agent1<-agent1')).toMatchObject({ ok: false, message: 'agent1 cannot read its own mind' });
    expect(parseMindread('agent1<-a b')).toMatchObject({ ok: false, message: expect.stringContaining('is not a seat id') });
    expect(parseMindread('a<-b;a<-c')).toMatchObject({ ok: false, message: 'a is named as a reader twice' });
    expect(parseMindread('')).toMatchObject({ ok: false });
    const long = parseMindread(`x<-${'y'.repeat(5000)}`);
    expect(long.ok).toBe(false);
    expect(!long.ok && long.message.length).toBeLessThan(200);
  });
});
