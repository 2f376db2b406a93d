import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discardEpisodeFiles, readEpisodeFiles, writeEpisodeFile } from './episode-files.js';
import { fixtureLock } from './testing/held-lock.js';
import { tempRunPaths } from './testing/temp-paths.js';

describe("an episode's ledgers and cassettes: one owner of their paths", () => {
  const dirs = tempRunPaths('epfiles');

  it('writes what a worker returned into the locked run, and refuses any other path', () => {
    const p = dirs();
    const lock = fixtureLock(p);
    mkdirSync(p.episodeLedgersDir('e1'), { recursive: true });
    expect(writeEpisodeFile(lock, 'e1', { path: 'ledgers/e1/agent1.jsonl', text: '{"a":1}\n' })).toBe(true);
    expect(readFileSync(p.ledgerFile('e1', 'agent1'), 'utf8')).toBe('{"a":1}\n');
    expect(writeEpisodeFile(lock, 'e1', { path: 'ledgers/e1/../../run.json', text: 'x' })).toBe(false);
    expect(writeEpisodeFile(lock, 'e1', { path: 'ledgers/e2/agent1.jsonl', text: 'x' })).toBe(false);
    expect(existsSync(p.runJson)).toBe(false);
  });

  it('reads back every ledger and cassette of a directory laid out as a run (a worker scratch copy)', () => {
    const p = dirs();
    mkdirSync(p.episodeLedgersDir('e1'), { recursive: true });
    mkdirSync(join(p.cassettesDir, 'e1'), { recursive: true });
    writeFileSync(p.ledgerFile('e1', 'agent1'), 'L\n');
    writeFileSync(join(p.cassettesDir, 'e1', 'agent1.jsonl'), 'C\n');
    expect(readEpisodeFiles(p).sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { path: 'cassettes/e1/agent1.jsonl', text: 'C\n' },
      { path: 'ledgers/e1/agent1.jsonl', text: 'L\n' },
    ]);
  });

  it("discards an unrecorded episode's ledgers and cassettes, and says whether there were any", () => {
    const p = dirs();
    mkdirSync(p.episodeLedgersDir('e1'), { recursive: true });
    mkdirSync(join(p.cassettesDir, 'e1'), { recursive: true });
    expect(discardEpisodeFiles(fixtureLock(p), 'e1')).toBe(true);
    expect([existsSync(p.episodeLedgersDir('e1')), existsSync(join(p.cassettesDir, 'e1'))]).toEqual([false, false]);
    expect(discardEpisodeFiles(fixtureLock(p), 'e1')).toBe(false);
  });
});
