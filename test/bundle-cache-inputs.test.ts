import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleOf } from '../bin/cli-bundle.mjs';
import { bundleInputs, dependencyManifest } from '../disk/bundle-cache.js';
import { REPO, tempDir } from './helpers/processes.js';

/**
 * What a cached bundle is keyed on (disk/bundle-cache.js, disk/bundle-inputs.js, disk/bundle-place.js): the
 * dependencies it inlined wherever an install put them, the code a long-lived process actually built with,
 * and a directory under a bundle's name only when it was built from the same.
 */
describe('the bundle cache keys on what was bundled', () => {
  const t = tempDir('bundle-cache-inputs');
  afterAll(() => t.remove());

  // Saved a while ago: a build does not cache what may have changed while esbuild read it.
  let age = 0;
  const write = (path: string, text: string) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    const past = new Date(Date.now() - 60_000 - ++age * 1000);
    utimesSync(path, past, past);
  };
  const requireHere = createRequire(import.meta.url);
  const load = (entry: string) => {
    delete requireHere.cache[entry];
    return (requireHere(entry) as { main(): string }).main();
  };
  const ONLY_MAIN = { main: 'cli/main.ts' };

  it("finds a dependency's package.json wherever the install put it", () => {
    const root = join(t.path, 'app', 'node_modules', 'parley');
    write(join(t.path, 'app', 'node_modules', '@scope', 'b', 'package.json'), '{}');
    write(join(t.path, 'linked', 'package.json'), '{}');
    expect(dependencyManifest(root, join('..', 'a', 'lib', 'index.js'))).toBe(join('..', 'a', 'package.json'));
    expect(dependencyManifest(root, join('..', '@scope', 'b', 'index.js'))).toBe(join('..', '@scope', 'b', 'package.json'));
    expect(dependencyManifest(root, join('node_modules', 'c', 'node_modules', 'd', 'x.js'))).toBe(join('node_modules', 'c', 'node_modules', 'd', 'package.json'));
    expect(dependencyManifest(root, join('..', '..', '..', 'linked', 'src', 'x.js'))).toBe(join('..', '..', '..', 'linked', 'package.json'));
  });

  it('in an installed package (dependencies hoisted beside parley, no lock file under its root), a dependency upgrade rebuilds', async () => {
    const app = join(t.path, 'app');
    const root = join(app, 'node_modules', 'parley');
    const cache = join(t.path, 'cache-install');
    write(join(app, 'package.json'), '{"name":"app","dependencies":{"parley":"*"}}');
    write(join(app, 'package-lock.json'), '{"lockfileVersion":3}');
    write(join(root, 'package.json'), '{"name":"parley","version":"1.0.0"}');
    write(join(root, 'cli', 'main.ts'), "import { v } from 'dep-x';\nexport const main = (): string => `dep ${v}`;\n");
    const dep = join(app, 'node_modules', 'dep-x');
    write(join(dep, 'package.json'), '{"name":"dep-x","version":"1.0.0","main":"index.js"}');
    write(join(dep, 'index.js'), 'exports.v = 1;\n');
    const first = await bundleOf(root, cache, ONLY_MAIN);
    expect(load(first)).toBe('dep 1');
    expect(bundleInputs(cache)).toContain(join('..', 'dep-x', 'package.json'));
    expect(await bundleOf(root, cache, ONLY_MAIN)).toBe(first);
    // What `npm install dep-x@1.0.1` does: new files and a new package.json.
    write(join(dep, 'package.json'), '{"name":"dep-x","version":"1.0.1","main":"index.js"}');
    write(join(dep, 'index.js'), 'exports.v = 2;\n');
    const upgraded = await bundleOf(root, cache, ONLY_MAIN);
    expect(upgraded).not.toBe(first);
    expect(load(upgraded)).toBe('dep 2');
  });

  it('a directory already under a bundle\'s name but built from something else is replaced, not reused', async () => {
    const root = join(t.path, 'plain');
    const cache = join(t.path, 'cache-replace');
    write(join(root, 'cli', 'main.ts'), "export const main = (): string => 'fresh';\n");
    const entry = await bundleOf(root, cache, ONLY_MAIN);
    expect(load(entry)).toBe('fresh');
    // A stale write under the same name (an older cache, a writer that described its bundle by files it had not bundled).
    writeFileSync(entry, "module.exports = { main: () => 'stale' };\n");
    writeFileSync(join(dirname(entry), 'built-from.json'), '{"key":"another"}');
    writeFileSync(join(cache, 'current.json'), '{}');
    expect(await bundleOf(root, cache, ONLY_MAIN)).toBe(entry);
    expect(load(entry)).toBe('fresh');
  });

  it('a long-lived process whose plugins code is older than the disk\'s does not vouch for the disk\'s: the next use builds its own', async () => {
    // A package with its own copy of the cache's modules, so a child process holds them as loaded.
    const root = join(t.path, 'held');
    const cache = join(t.path, 'cache-held');
    for (const f of ['bundle-cache.js', 'bundle-plugins.js', 'bundle-inputs.js', 'bundle-place.js', 'bundle-use.cjs']) {
      mkdirSync(join(root, 'disk'), { recursive: true });
      copyFileSync(join(REPO, 'disk', f), join(root, 'disk', f));
      utimesSync(join(root, 'disk', f), new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
    }
    symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'), 'dir');
    write(join(root, 'package.json'), '{"name":"held","type":"module"}');
    write(join(root, 'cli', 'main.ts'), "export const main = (): string => 'held';\n");
    const script = [
      `const { cachedBundle, NODE_BUNDLE_OPTIONS } = await import(${JSON.stringify(`file://${root}${sep}disk${sep}bundle-cache.js`)});`,
      "console.log('loaded');",
      "process.stdin.once('data', async () => {",
      `  const entry = await cachedBundle({ root: ${JSON.stringify(root)}, dir: ${JSON.stringify(cache)}, entryPoints: { main: ${JSON.stringify(join(root, 'cli', 'main.ts'))} }, main: 'main.mjs', options: NODE_BUNDLE_OPTIONS });`,
      '  console.log(entry);',
      '  process.exit(0);',
      '});',
    ].join('\n');
    const env = { ...process.env };
    delete env.PARLEY_PACKAGE_ROOT;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { env, stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    await expect.poll(() => out, { timeout: 20_000 }).toContain('loaded\n');
    // An upgrade (or an edit) of the plugins' module while the process runs with the old one.
    write(join(root, 'disk', 'bundle-plugins.js'), `${readFileSync(join(REPO, 'disk', 'bundle-plugins.js'), 'utf8')}// a newer version\n`);
    child.stdin.end('build\n');
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(0);
    const held = out.split('\n')[1]!;
    const manifest = JSON.parse(readFileSync(join(cache, 'current.json'), 'utf8')) as { inputs: Array<[string, number, number, string]> };
    expect(manifest.inputs.find((i) => i[0] === join('disk', 'bundle-plugins.js'))?.slice(1, 3)).toEqual([-1, -1]);
    const { cachedBundle, NODE_BUNDLE_OPTIONS } = await import('../disk/bundle-cache.js');
    const fresh = await cachedBundle({ root, dir: cache, entryPoints: { main: join(root, 'cli', 'main.ts') }, main: 'main.mjs', options: NODE_BUNDLE_OPTIONS as Record<string, unknown> });
    expect(fresh).not.toBe(held);
    expect(await cachedBundle({ root, dir: cache, entryPoints: { main: join(root, 'cli', 'main.ts') }, main: 'main.mjs', options: NODE_BUNDLE_OPTIONS as Record<string, unknown> })).toBe(fresh);
  });
});
