import { describe, expect, it } from 'vitest';
import { findCodeCache, withCodeCacheOf } from './blob-code-cache.js';

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
