import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cutIfItStarts, findCodeCache, withCodeCacheOf } from './blob-code-cache.js';

const MAGIC = Buffer.from([0xcc, 0x05, 0xde, 0xc0]);
const u64 = (n: number) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(n));
  return b;
};
const entry = (id: string, size: number) => {
  const data = Buffer.concat([MAGIC, Buffer.alloc(size, id.length)]);
  return Buffer.concat([u64(id.length), Buffer.from(id, 'latin1'), u64(data.length), data]);
};
/** A blob's shape: its other fields (here bytes that hold the magic too), then the code cache vector, last. */
const blob = (ids: string[]) => Buffer.concat([Buffer.from('head'), MAGIC, u64(3), Buffer.from('more fields'), u64(ids.length), ...ids.map((id, i) => entry(id, 10 + i))]);

describe('the code cache at the end of a snapshot blob', () => {
  it('is found by its shape, running to the end of the file, and cut to the kept modules', () => {
    const whole = blob(['fs', 'child_process', 'internal/test_runner/test', 'tls']);
    const found = findCodeCache(whole);
    expect(found?.entries.map((e) => e.id)).toEqual(['fs', 'child_process', 'internal/test_runner/test', 'tls']);
    const cut = withCodeCacheOf(whole, new Set(['child_process', 'tls', 'http']));
    expect(cut).toEqual(Buffer.concat([whole.subarray(0, found!.at), u64(2), entry('child_process', 11), entry('tls', 13)]));
    expect(findCodeCache(cut!)?.entries.map((e) => e.id)).toEqual(['child_process', 'tls']);
  });

  it('a blob of another shape is left whole: trailing bytes, or an entry without the magic', () => {
    expect(withCodeCacheOf(Buffer.concat([blob(['fs', 'tls']), Buffer.from('x')]), new Set(['tls']))).toBeNull();
    const noMagic = Buffer.concat([Buffer.from('head'), u64(1), u64(2), Buffer.from('fs'), u64(4), Buffer.from('abcd')]);
    expect(withCodeCacheOf(noMagic, new Set())).toBeNull();
  });
});

describe('a cut blob is kept only if a process starts from it', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const file = (bytes: Buffer) => {
    const dir = mkdtempSync(join(tmpdir(), 'blob-cut-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'agent.blob'), bytes);
    return join(dir, 'agent.blob');
  };
  const whole = blob(['fs', 'tls', 'child_process']);
  const cut = (b: Buffer) => withCodeCacheOf(b, new Set(['tls']));

  it('the cut blob stays when it starts', async () => {
    const path = file(whole);
    const started: number[] = [];
    await expect(cutIfItStarts(path, async () => void started.push(readFileSync(path).length), cut)).resolves.toEqual({ kept: 'cut' });
    expect(readFileSync(path)).toEqual(cut(whole));
    expect(started).toEqual([cut(whole)!.length]);
  });

  it('the blob as built comes back when the cut one does not start, and is checked itself', async () => {
    const path = file(whole);
    const started: number[] = [];
    const start = async () => {
      started.push(readFileSync(path).length);
      if (readFileSync(path).length !== whole.length) throw new Error('exit 14');
    };
    await expect(cutIfItStarts(path, start, cut)).resolves.toEqual({ kept: 'whole', why: 'a process from the cut blob did not start: exit 14' });
    expect(readFileSync(path)).toEqual(whole);
    expect(started).toEqual([cut(whole)!.length, whole.length]);
  });

  it("fails with the whole blob's error when neither starts; a blob without a cut is started once", async () => {
    const path = file(whole);
    await expect(cutIfItStarts(path, () => Promise.reject(new Error(`no start at ${readFileSync(path).length}`)), cut)).rejects.toThrow(`no start at ${whole.length}`);
    expect(readFileSync(path)).toEqual(whole);
    let starts = 0;
    await expect(cutIfItStarts(file(Buffer.from('no cache here')), async () => void starts++, cut)).resolves.toEqual({ kept: 'whole', why: expect.stringMatching(/code cache was not found/) });
    expect(starts).toBe(1);
  });
});
