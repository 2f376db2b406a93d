import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { intact } from './worker-snapshot.js';

/**
 * A blob's digest is checked by hashing it once per version of the file, whichever process asks: the first
 * notes what it found beside the blob (worker-snapshot.ts `intact`); a later process (a fresh memo here)
 * takes the note only while the blob's identity is the one noted.
 */
describe('the start-up snapshot blob: hashed once per version of the file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-blob-note-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const blobWith = (name: string, bytes: Buffer) => {
    const blob = join(dir, name);
    writeFileSync(blob, bytes);
    writeFileSync(`${blob}.sha256`, createHash('sha256').update(bytes).digest('hex'));
    return blob;
  };

  it('notes a blob whose bytes match its digest; a later process takes the note while the blob is the file noted', () => {
    const blob = blobWith('a.blob', randomBytes(4096));
    expect(existsSync(`${blob}.checked`)).toBe(false);
    expect(intact(blob, new Map())).toBe(true);
    expect(readFileSync(`${blob}.checked`, 'utf8')).toMatch(/^[0-9a-f]{64} \d+:\d+:4096:\d+:\d+$/);
    // The note is taken without hashing: a note naming the blob as it is now is believed (it is as trusted
    // as the digest beside it, both written by the package's own build in its cache).
    const bytes = readFileSync(blob);
    writeFileSync(`${blob}.sha256`, createHash('sha256').update('other bytes').digest('hex'));
    const note = readFileSync(`${blob}.checked`, 'utf8').replace(/^[0-9a-f]{64}/, readFileSync(`${blob}.sha256`, 'utf8'));
    writeFileSync(`${blob}.checked`, note);
    expect(intact(blob, new Map())).toBe(true);
    writeFileSync(`${blob}.sha256`, createHash('sha256').update(bytes).digest('hex'));
  });

  it('a blob changed in place (same size) or replaced after its note is hashed again, and refused when damaged', () => {
    const bytes = randomBytes(4096);
    const blob = blobWith('b.blob', bytes);
    expect(intact(blob, new Map())).toBe(true);
    const damaged = Buffer.from(bytes);
    damaged[100] = damaged[100]! ^ 0xff;
    writeFileSync(blob, damaged);
    // As a later edit's time (a kernel with coarse timestamps gives two writes within one tick the same times).
    utimesSync(blob, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    expect(intact(blob, new Map())).toBe(false);
    // Replaced by another file of the same bytes as the damaged one: a new inode, still refused.
    writeFileSync(`${blob}.new`, damaged);
    renameSync(`${blob}.new`, blob);
    expect(intact(blob, new Map())).toBe(false);
    // Whole again: hashed, accepted, noted anew.
    writeFileSync(blob, bytes);
    expect(intact(blob, new Map())).toBe(true);
    expect(intact(blob, new Map())).toBe(true);
  });

  it('a missing blob or digest is not intact', () => {
    expect(intact(join(dir, 'none.blob'), new Map())).toBe(false);
    const blob = blobWith('c.blob', randomBytes(64));
    rmSync(`${blob}.sha256`);
    expect(intact(blob, new Map())).toBe(false);
  });
});
