import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readProbeDefinition } from './definition-file.js';

const dir = mkdtempSync(join(tmpdir(), 'probe-def-'));
const file = (name: string, text: string) => {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
};

describe('probe files (YAML)', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the shipped example reads as an exact probe of the shared friend, answered by bots from that belief', () => {
    const read = readProbeDefinition(join(import.meta.dirname, '..', 'examples', 'probes', 'friend-named.yaml'));
    expect(read.ok && read.probe).toMatchObject({ name: 'friend-named', scorer: 'exact', botAsk: 'shared-friend' });
  });
  it('a mistake is one line with the file, the line and the key', () => {
    const bad = readProbeDefinition(file('bad.yaml', 'name: x\nquestion: Why?\nscorer: exact\ntruth: the-moon\n'));
    expect(bad).toMatchObject({ ok: false });
    expect(!bad.ok && bad.message).toMatch(/bad\.yaml:4: truth: /);
    const extra = readProbeDefinition(file('extra.yaml', 'name: x\nquestion: Why?\nscorer: none\ntruth: none\ncolour: red\n'));
    expect(!extra.ok && extra.message).toMatch(/extra\.yaml:5: colour: unknown key 'colour'/);
  });
  it('a scorer must fit its truth: none with none, numeric only with a price', () => {
    expect(readProbeDefinition(file('a.yaml', 'name: x\nquestion: Why?\nscorer: judge\ntruth: none\n')).ok).toBe(false);
    expect(readProbeDefinition(file('b.yaml', 'name: x\nquestion: Why?\nscorer: numeric\ntruth: partner-goal\n')).ok).toBe(false);
    expect(readProbeDefinition(file('c.yaml', 'name: x\nquestion: Price?\nscorer: numeric\ntruth: partner-price\n')).ok).toBe(true);
  });
});
