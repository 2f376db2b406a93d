import { describe, expect, it } from 'vitest';
import { RefusalLog } from './refusal-log.js';

describe('RefusalLog (issue 35: aggregated refused watch keys)', () => {
  it('200 refusals from one address make two lines: the first at once, the count when the window closes', () => {
    const lines: string[] = [];
    let close: (() => void) | null = null;
    const log = new RefusalLog((l) => lines.push(l), 'watch connection', 10_000, (fn) => void (close = fn));
    for (let i = 0; i < 200; i++) log.refused('10.0.0.1', 'no or wrong key');
    log.refused('10.0.0.2', 'no or wrong key');
    expect(lines).toEqual(['refused a watch connection from 10.0.0.1: no or wrong key', 'refused a watch connection from 10.0.0.2: no or wrong key']);
    close!();
    expect(lines.slice(2)).toEqual(['refused 199 more watch connections from 10.0.0.1 in 10 s: no or wrong key']);
    log.refused('10.0.0.1', 'no or wrong key');
    expect(lines).toHaveLength(4);
  });
});
