import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeRunDirFile } from './added-file.js';
import { compareVerdictsName, listCompareVerdicts, readCompareVerdicts } from './compare-verdicts.js';
import { fixtureLock } from './testing/held-lock.js';
import { tempRunPaths } from './testing/temp-paths.js';

describe('compare verdict files: one name, one reader, one torn-line rule', () => {
  const dirs = tempRunPaths('verdicts');

  it('lists the verdict files of a run by the modes their name carries', () => {
    const p = dirs();
    writeFileSync(join(p.dir, compareVerdictsName('script', 'agents')), '');
    writeFileSync(join(p.dir, 'episodes.jsonl'), '');
    expect(listCompareVerdicts(p.dir)).toEqual([{ file: join(p.dir, 'compare-script-vs-agents.jsonl'), modeA: 'script', modeB: 'agents' }]);
    expect(listCompareVerdicts(join(p.dir, 'absent'))).toEqual([]);
  });

  it('keeps every good line, names a bad one, and leaves a torn tail out', () => {
    const p = dirs();
    const file = join(p.dir, compareVerdictsName('a', 'b'));
    writeFileSync(file, '{"ok":true,"winner":"A"}\nnot json\n{"ok":false}\n{"ok":tr');
    const read = readCompareVerdicts(file);
    expect(read.values).toEqual([{ ok: true, winner: 'A' }, { ok: false }]);
    expect(read.badLines.map((b) => b.line)).toEqual([2]);
    expect(read.tornBytes).toBe(8);
  });

  it('a file added to a run is written under its lock, and only inside the locked directory', async () => {
    const p = dirs();
    const lock = fixtureLock(p);
    await writeRunDirFile(lock, join(p.dir, 'exports', 'x.jsonl'), 'x\n');
    expect(readFileSync(join(p.dir, 'exports', 'x.jsonl'), 'utf8')).toBe('x\n');
    const other = dirs();
    mkdirSync(other.dir, { recursive: true });
    await expect(writeRunDirFile(lock, join(other.dir, 'y.jsonl'), 'y\n')).rejects.toThrow(/not inside the locked run directory/);
    expect(existsSync(join(other.dir, 'y.jsonl'))).toBe(false);
  });
});
