import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO, tempDir } from './helpers/processes.js';

/**
 * bin/cli-code-cache.js runs the CLI bundle with a V8 code cache per command, written when a process exits.
 * A cache must never change what runs: each case checks the program's answer as well as the cache file.
 * The bundle here is a small CommonJS file of our own; child processes, because the cache is written at exit.
 */

const run = promisify(execFile);

describe('the CLI bundle\'s code cache (bin/cli-code-cache.js)', () => {
  const t = tempDir('cli-code-cache');
  afterAll(() => t.remove());

  const dir = join(t.path, 'b-0123456789abcdef');
  mkdirSync(dir, { recursive: true });
  const bundle = join(dir, 'main.cjs');
  // `heavy` spins ~0.2 s of CPU after the load: a process that works much longer than the cache's writer.
  writeFileSync(
    bundle,
    [
      '"use strict";',
      'exports.COMMANDS = { go: {} };',
      'const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };',
      'const spin = (ms) => { const end = cpu() + ms; let x = 0; while (cpu() < end) x += Math.sqrt(x + 1); return x; };',
      'exports.main = async (argv) => { if (argv.includes("heavy")) spin(200); return `${argv[0]}:${argv.length}`; };',
    ].join('\n'),
  );
  const runner = join(t.path, 'runner.mjs');
  writeFileSync(
    runner,
    [
      `import { loadWithCodeCache } from ${JSON.stringify(pathToFileURL(join(REPO, 'bin', 'cli-code-cache.js')).href)};`,
      'const argv = process.argv.slice(2);',
      `const cli = loadWithCodeCache(${JSON.stringify(bundle)}, argv[0], (m, k) => Object.hasOwn(m.COMMANDS, k));`,
      'console.log(await cli.main(argv));',
    ].join('\n'),
  );
  const cli = async (...argv: string[]) => (await run(process.execPath, [runner, ...argv], { env: { ...process.env, NODE_OPTIONS: '' } })).stdout.trim();
  const cacheOf = (key: string) => join(dir, `code-main-${key}.v8`);
  const identity = (path: string) => {
    const st = statSync(path);
    return `${st.ino}:${st.mtimeMs}:${st.size}`;
  };

  it('a known command writes its cache at exit; the next process runs from it and leaves it as it is', async () => {
    expect(await cli('go', 'a')).toBe('go:2');
    expect(existsSync(cacheOf('go'))).toBe(true);
    const written = identity(cacheOf('go'));
    expect(await cli('go', 'b', 'c')).toBe('go:3');
    expect(identity(cacheOf('go'))).toBe(written);
  });

  it('a command not in the table, or a name that is no file name, leaves no cache', async () => {
    expect(await cli('nope')).toBe('nope:1');
    expect(await cli('../escape')).toBe('../escape:1');
    expect(await cli('Go')).toBe('Go:1');
    expect(readdirSync(dir).filter((n) => n.endsWith('.v8')).sort()).toEqual(['code-main-go.v8']);
    expect(existsSync(join(t.path, 'escape.v8'))).toBe(false);
  });

  it('a damaged or foreign cache is not used: the program runs the same and the cache is written again', async () => {
    const valid = readFileSync(cacheOf('go'));
    const damaged = Buffer.concat([valid.subarray(0, 12), Buffer.alloc(valid.length - 12, 0x5a)]);
    // Damaged in place, header intact: given to V8 as it is, this crashes Node (it does not check its data).
    const flipped = Buffer.from(valid);
    for (const at of [100, 200, valid.length >> 1]) flipped[at]! ^= 0xff;
    for (const bad of [flipped, damaged, valid.subarray(0, valid.length >> 1), Buffer.from('not a cache at all')]) {
      writeFileSync(cacheOf('go'), bad);
      expect(await cli('go', 'x')).toBe('go:2');
      const now = readFileSync(cacheOf('go'));
      expect(now.equals(bad)).toBe(false);
      expect(now.readUInt32LE(4)).toBe(valid.readUInt32LE(4));
    }
  });

  it('a bundle that is not pure ASCII runs from its cache as UTF-8, as it ran without one', async () => {
    const textDir = join(t.path, 'b-fedcba9876543210');
    mkdirSync(textDir, { recursive: true });
    const textBundle = join(textDir, 'main.cjs');
    // The cache's header says the bundle is not ASCII: read as latin1, the reply would be 'cafÃ©'.
    writeFileSync(textBundle, ['"use strict";', 'exports.COMMANDS = { go: {} };', 'exports.main = async () => "café";'].join('\n'));
    const textRunner = join(t.path, 'text-runner.mjs');
    writeFileSync(textRunner, readFileSync(runner, 'utf8').replace(JSON.stringify(bundle), JSON.stringify(textBundle)));
    const textCli = async () => (await run(process.execPath, [textRunner, 'go'], { env: { ...process.env, NODE_OPTIONS: '' } })).stdout.trim();
    expect(await textCli()).toBe('café');
    const cache = join(textDir, 'code-main-go.v8');
    expect(existsSync(cache)).toBe(true);
    const written = identity(cache);
    expect(await textCli()).toBe('café');
    expect(identity(cache)).toBe(written);
    expect(readFileSync(cache).readUInt32LE(4)).not.toBe(readFileSync(cacheOf('go')).readUInt32LE(4));
  });

  it('a process that works much longer than the cache\'s writer writes it again, once', async () => {
    const light = identity(cacheOf('go'));
    expect(await cli('go', 'heavy')).toBe('go:2');
    const heavy = identity(cacheOf('go'));
    expect(heavy).not.toBe(light);
    expect(await cli('go', 'heavy')).toBe('go:2');
    expect(identity(cacheOf('go'))).toBe(heavy);
  });
});
