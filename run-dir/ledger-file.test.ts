import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FileLedger, LEDGER_FLUSH } from './ledger-file.js';
import { tempRunPaths } from './testing/temp-paths.js';

const text = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : null);

describe('FileLedger: lines held in memory, written in order off the event loop', () => {
  const dirs = tempRunPaths('ledger');
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('opens the file at once (its directory made) and holds a short episode’s lines until close, then writes them in order; no line after close', async () => {
    const a = new FileLedger(join(dirs().dir, 'ledgers', 'e1', 'a.jsonl'));
    const b = new FileLedger(join(dirs().dir, 'ledgers', 'e1', 'b.jsonl'));
    a.append('{"n":1}');
    b.append('{"n":1}');
    a.append('{"n":2}');
    // Opened (empty) as the episode starts; its lines wait for close.
    await vi.waitFor(() => expect(text(a.path)).toBe(''));
    await new Promise((resolve) => setImmediate(resolve));
    expect(text(a.path)).toBe('');
    await Promise.all([a.close(), b.close()]);
    expect(text(a.path)).toBe('{"n":1}\n{"n":2}\n');
    expect(text(b.path)).toBe('{"n":1}\n');
    expect(() => a.append('{"n":3}')).toThrow(/is closed/);
    await a.close();
    expect(text(a.path)).toBe('{"n":1}\n{"n":2}\n');
  });

  it('writes once LEDGER_FLUSH.chars are held, and LEDGER_FLUSH.afterMs after the first line held, without close', async () => {
    const big = new FileLedger(join(dirs().dir, 'big.jsonl'));
    const line = `"${'x'.repeat(1000)}"`;
    const lines = Array.from({ length: Math.ceil(LEDGER_FLUSH.chars / line.length) }, () => line);
    for (const l of lines) big.append(l);
    await vi.waitFor(() => expect(text(big.path)).toBe(lines.map((l) => `${l}\n`).join('')));
    big.append('"last"');
    await big.close();
    expect(text(big.path)).toBe([...lines, '"last"'].map((l) => `${l}\n`).join(''));

    const slow = new FileLedger(join(dirs().dir, 'slow.jsonl'));
    await vi.waitFor(() => expect(text(slow.path)).toBe(''));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    slow.append('{"turn":0}');
    vi.advanceTimersByTime(LEDGER_FLUSH.afterMs - 1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(text(slow.path)).toBe('');
    vi.advanceTimersByTime(1);
    vi.useRealTimers();
    await vi.waitFor(() => expect(text(slow.path)).toBe('{"turn":0}\n'));
    await slow.close();
    expect(text(slow.path)).toBe('{"turn":0}\n');
  });

  it('truncates an earlier attempt’s ledger; an empty one is created; one that cannot be opened says so once and drops its lines without throwing', async () => {
    const path = join(dirs().dir, 'again.jsonl');
    const first = new FileLedger(path);
    first.append('{"old":true}');
    first.append('{"old":2}');
    await first.close();
    const second = new FileLedger(path);
    second.append('{"new":true}');
    await second.close();
    expect(text(path)).toBe('{"new":true}\n');
    const empty = new FileLedger(join(dirs().dir, 'ledgers', 'e2', 'none.jsonl'));
    await empty.close();
    expect(text(empty.path)).toBe('');

    const errors: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((line: string) => void errors.push(line));
    const dir = join(dirs().dir, 'a-directory.jsonl');
    mkdirSync(dir);
    const broken = new FileLedger(dir);
    broken.append(`"${'y'.repeat(LEDGER_FLUSH.chars)}"`);
    broken.append('{"n":2}');
    await broken.close();
    expect(errors).toEqual([expect.stringMatching(/^ledger .*a-directory\.jsonl: EISDIR/)]);
  });
});
