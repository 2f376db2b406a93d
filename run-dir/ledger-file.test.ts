import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FileLedger } from './ledger-file.js';
import { tempRunPaths } from './testing/temp-paths.js';

describe('FileLedger: one synchronous writer for every ledger of the process', () => {
  const dirs = tempRunPaths('ledger');
  afterEach(() => vi.restoreAllMocks());

  it('writes the lines of a tick at its end, in order, before any other event is handled; close keeps them', async () => {
    const a = new FileLedger(join(dirs().dir, 'ledgers', 'e1', 'a.jsonl'));
    const b = new FileLedger(join(dirs().dir, 'ledgers', 'e1', 'b.jsonl'));
    a.append('{"n":1}');
    b.append('{"n":1}');
    a.append('{"n":2}');
    expect(readFileSync(a.path, 'utf8')).toBe('');
    // The next macrotask sees them on disk (no thread-pool write still in flight).
    await new Promise((resolve) => setImmediate(resolve));
    expect(readFileSync(a.path, 'utf8')).toBe('{"n":1}\n{"n":2}\n');
    expect(readFileSync(b.path, 'utf8')).toBe('{"n":1}\n');
    a.append('{"n":3}');
    await a.close();
    await b.close();
    expect(readFileSync(a.path, 'utf8')).toBe('{"n":1}\n{"n":2}\n{"n":3}\n');
    expect(() => a.append('{"n":4}')).toThrow(/is closed/);
  });

  it('truncates an earlier attempt’s ledger; a ledger that cannot be opened says so and drops its lines without throwing', async () => {
    const path = join(dirs().dir, 'again.jsonl');
    const first = new FileLedger(path);
    first.append('{"old":true}');
    await first.close();
    const second = new FileLedger(path);
    second.append('{"new":true}');
    await second.close();
    expect(readFileSync(path, 'utf8')).toBe('{"new":true}\n');

    const errors: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((line: string) => void errors.push(line));
    const dir = join(dirs().dir, 'a-directory.jsonl');
    mkdirSync(dir);
    const broken = new FileLedger(dir);
    broken.append('{"n":1}');
    await broken.close();
    expect(errors).toEqual([expect.stringMatching(/^ledger .*a-directory\.jsonl: EISDIR/)]);
  });
});
