import { mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { unchangedByStat, unchangedCheck } from './file-unchanged.js';

/**
 * The start stamp's per-file check (bin/file-unchanged.js) reads Node's fs binding instead of building a
 * Stats object a file: it must answer as statSync does, for every case the stamp meets.
 */
describe('the start stamp file check (bin/file-unchanged.js)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'file-unchanged-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'a.ts');
  writeFileSync(file, 'export const a = 1;\n');
  // A fractional mtime: the milliseconds must come out as statSync's, to the last bit.
  utimesSync(file, new Date(1_700_000_000_123.456), new Date(1_700_000_000_456.789));

  it('is the binding check in a plain process, not the statSync fallback', () => {
    expect(unchangedCheck(file)).not.toBe(unchangedByStat);
  });

  it('falls back to statSync where the binding would print a deprecation warning (the flag, or NODE_PENDING_DEPRECATION=1)', () => {
    const before = process.env.NODE_PENDING_DEPRECATION;
    process.env.NODE_PENDING_DEPRECATION = '1';
    try {
      expect(unchangedCheck(file)).toBe(unchangedByStat);
    } finally {
      if (before === undefined) delete process.env.NODE_PENDING_DEPRECATION;
      else process.env.NODE_PENDING_DEPRECATION = before;
    }
  });

  it("answers as statSync: same file, another size, another mtime, a touch, a missing file", () => {
    const check = unchangedCheck(file);
    const st = statSync(file);
    const cases: Array<[string, number, number]> = [
      [file, st.size, st.mtimeMs],
      [file, st.size + 1, st.mtimeMs],
      [file, st.size, st.mtimeMs + 0.001],
      [join(dir, 'missing.ts'), st.size, st.mtimeMs],
      [dir, statSync(dir).size, statSync(dir).mtimeMs],
    ];
    const answers = cases.map((c) => check(...c));
    expect(answers).toEqual(cases.map((c) => unchangedByStat(...c)));
    expect(answers).toEqual([true, false, false, false, true]);
    utimesSync(file, new Date(), new Date());
    expect(check(file, st.size, st.mtimeMs)).toBe(false);
  });
});
