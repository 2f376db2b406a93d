import { describe, expect, it } from 'vitest';
import { accuracyCells, lastTurnCells } from './accuracy.js';
import type { ProbeRecord } from './probe-record.js';

const line = (mode: string, episode: string, turn: number, score: number | null, reveal?: string[]): ProbeRecord => ({
  v: 1, run: 'R', runDir: '/r', episode, scenario: 's', kind: 'mutual_friends', mode, ...(reveal ? { reveal } : {}), seat: 'agent1', turn,
  probe: 'shared-friend', question: 'q', model: 'bot', answer: 'x', truth: 'x', scorer: 'exact', score,
});

describe('belief accuracy against turn', () => {
  it('a share with a Wilson interval per (arm, turn); unscored answers counted apart; forks with a reveal are their own arm', () => {
    const cells = accuracyCells([line('agents', 'a', 0, 1), line('agents', 'b', 0, 0), line('agents', 'c', 0, null), line('agents', 'a', 2, 1), line('agents', 'f', 2, 1, ['agent2.task:agent1'])]);
    const at0 = cells.find((c) => c.arm === 'agents' && c.turn === 0)!;
    expect(at0).toMatchObject({ n: 2, unscored: 1, value: 0.5 });
    expect(at0.lo!).toBeGreaterThan(0);
    expect(at0.hi!).toBeLessThan(1);
    expect(cells.map((c) => `${c.arm}@${c.turn}`)).toEqual(['agents@0', 'agents@2', 'agents + reveal@2']);
  });
  it('the last turn is each episode\'s own last probed turn', () => {
    const cells = lastTurnCells([line('agents', 'a', 0, 0), line('agents', 'a', 6, 1), line('agents', 'b', 2, 0)]);
    expect(cells).toEqual([expect.objectContaining({ arm: 'agents', n: 2, value: 0.5 })]);
  });
});
