import { existsSync, mkdirSync, renameSync, utimesSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleOf, cliBundle } from '../bin/cli-bundle.mjs';
import { stampedBundle, writeStamp } from '../bin/cli-start.js';
import { inputsOf } from '../disk/bundle-cache.js';
import { tempDir } from './helpers/processes.js';

/**
 * A `parley` start trusts the bundle its start stamp names (bin/cli-start.js) without the full check of
 * disk/bundle-cache.js: the stamp must stop vouching as soon as any file it lists is touched, and for
 * another checkout or another bundle directory.
 */
describe('the CLI start stamp (bin/cli-start.js)', () => {
  const t = tempDir('cli-start-stamp');
  afterAll(() => t.remove());

  const root = join(t.path, 'pkg') + sep;
  const cache = join(t.path, 'cache');
  mkdirSync(join(root, 'cli'), { recursive: true });
  const write = (rel: string, text: string, ageS: number) => {
    writeFileSync(join(root, rel), text);
    const past = new Date(Date.now() - ageS * 1000);
    utimesSync(join(root, rel), past, past);
  };
  write('cli/main.ts', "import { answer } from './dep.js';\nexport const main = (): string => `answer ${answer}`;\n", 90);
  write('cli/dep.ts', 'export const answer: number = 1;\n', 80);
  write('key.js', '// stands for a module that computes the key\n', 70);
  const keySource = join(root, 'key.js');

  const stamp = async () => {
    const entry = await bundleOf(root, cache, { main: 'cli/main.ts' });
    writeStamp({ root, dir: cache, entry, inputs: inputsOf(cache, entry)!, keySources: [keySource] });
    return entry;
  };

  it('vouches for the bundle the full check found, for this root only', async () => {
    const entry = await stamp();
    expect(stampedBundle(root, cache)).toBe(entry);
    expect(stampedBundle(join(t.path, 'elsewhere') + sep, cache)).toBeNull();
  });

  it('stops vouching when a source is touched (even to the same text) or a key source changes; the full check stamps again', async () => {
    const entry = await stamp();
    const later = new Date(Date.now() - 10_000);
    utimesSync(join(root, 'cli', 'dep.ts'), later, later);
    expect(stampedBundle(root, cache)).toBeNull();
    expect(await stamp()).toBe(entry);
    expect(stampedBundle(root, cache)).toBe(entry);
    write('key.js', '// stands for a module that computes the key, edited\n', 5);
    expect(stampedBundle(root, cache)).toBeNull();
  });

  it('stops vouching when its bundle is gone', async () => {
    const entry = await stamp();
    expect(stampedBundle(root, cache)).toBe(entry);
    renameSync(join(entry, '..'), join(entry, '..', '..', 'moved'));
    expect(stampedBundle(root, cache)).toBeNull();
  });

  it("the CLI's own stamp names the bundle the full check returns", async () => {
    const entry = await cliBundle();
    expect(entry).not.toBeNull();
    expect(existsSync(entry!)).toBe(true);
    expect(stampedBundle()).toBe(entry);
  });
});
