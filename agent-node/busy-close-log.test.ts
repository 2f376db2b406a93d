import { afterEach, describe, expect, it, vi } from 'vitest';
import { BusyCloseLog } from './busy-close-log.js';

describe('BusyCloseLog', () => {
  afterEach(() => vi.useRealTimers());

  it('logs the first busy close in full, then one summed line a period, and the rest on flush', () => {
    vi.useFakeTimers();
    const lines: string[] = [];
    const busy = new BusyCloseLog((l) => lines.push(l), 1000);
    busy.note('seat a: closed to make room (close 4009)');
    for (let i = 0; i < 5; i++) busy.note(`seat ${i}: closed to make room`);
    expect(lines).toEqual(['seat a: closed to make room (close 4009)']);
    vi.advanceTimersByTime(1000);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe('the orchestrator closed 5 more connections waiting to join to make room (close 4009), 6 in this process so far; their seats join again');
    busy.note('seat x');
    busy.flush();
    expect(lines[2]).toContain('closed 1 more connection waiting to join');
    expect(lines[2]).toContain('7 in this process so far');
    // Nothing new: no line, and no timer left armed.
    busy.flush();
    vi.advanceTimersByTime(5000);
    expect(lines).toHaveLength(3);
    expect(vi.getTimerCount()).toBe(0);
  });
});
