import { describe, expect, it } from 'vitest';
import { CaseChildren } from './case-children.js';

describe('CaseChildren: the agent processes among a case process’s children', () => {
  const CASE = 'node\0latency-case.mjs\0{}\0';
  function world() {
    const kids: number[] = [];
    const lines = new Map<number, string>([[1, CASE]]);
    const reads: number[] = [];
    const c = new CaseChildren(1, () => [...kids], (pid) => (reads.push(pid), lines.get(pid) ?? ''));
    return { kids, lines, reads, c };
  }

  it('a child not exec’d yet (its parent’s command line) is neither sampled nor judged until it has exec’d', () => {
    const { kids, lines, c } = world();
    kids.push(7);
    lines.set(7, CASE);
    expect(c.agents()).toEqual([]);
    lines.set(7, 'node\0node_modules/esbuild/bin/esbuild\0--service\0');
    expect(c.agents()).toEqual([]);
    kids.push(8);
    lines.set(8, CASE);
    expect(c.agents()).toEqual([]);
    lines.set(8, 'node\0worker.mjs\0');
    expect(c.agents()).toEqual([8]);
  });

  it('reads a command line once per process, and judges a pid again once it was gone (reused)', () => {
    const { kids, lines, reads, c } = world();
    kids.push(9);
    lines.set(9, 'node\0/x/esbuild\0--service\0');
    expect(c.agents()).toEqual([]);
    expect(c.agents()).toEqual([]);
    expect(reads.filter((p) => p === 9)).toHaveLength(1);
    kids.splice(0);
    expect(c.agents()).toEqual([]);
    kids.push(9);
    lines.set(9, 'node\0worker.mjs\0');
    expect(c.agents()).toEqual([9]);
  });
});
