import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isAscii } from 'node:buffer';
import { createRequire } from 'node:module';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleFor, bundleOf, cliBundle, cliCacheDir, LIGHT_COMMANDS } from '../bin/cli-bundle.mjs';
import { COMMANDS as LIGHT } from '../cli/light-main.js';
import { COMMANDS } from '../cli/main.js';
import { bundleInputs } from '../disk/bundle-cache.js';
import { parleyCli, cleanEnv } from './llm-run-helpers.js';
import { REPO, tempDir } from './helpers/processes.js';

/**
 * bin/parley.js runs the CLI from a bundle cached under node_modules/.cache/parley/cli (bin/cli-bundle.mjs).
 * A stale bundle would run old code while the sources say otherwise, so: the cache must notice every
 * change to a file the bundle was built from, and only those; and code in the bundle must find shipped
 * files through the package root, never through its own location.
 */

describe('the cached CLI bundle (bin/cli-bundle.mjs, bin/cli-start.js, disk/bundle-cache.js)', () => {
  const t = tempDir('cli-bundle');
  afterAll(() => t.remove());

  const root = join(t.path, 'pkg');
  const cache = join(t.path, 'cache');
  mkdirSync(join(root, 'cli'), { recursive: true });
  // A source saved a while ago (a build does not cache what may have changed while esbuild read it).
  let age = 0;
  const write = (rel: string, text: string) => {
    writeFileSync(join(root, rel), text);
    const past = new Date(Date.now() - 60_000 - ++age * 1000);
    utimesSync(join(root, rel), past, past);
  };
  write('cli/main.ts', "import { answer } from './dep.js';\nexport const main = (): string => `answer ${answer}`;\n");
  write('cli/dep.ts', 'export const answer: number = 1;\n');
  // The bundle is one CommonJS file (bin/parley.js runs it through bin/cli-code-cache.js): required afresh each time.
  const requireHere = createRequire(import.meta.url);
  const load = async (entry: string) => {
    delete requireHere.cache[entry];
    return (requireHere(entry) as { main(): string }).main();
  };
  const bundles = () => readdirSync(cache).filter((n) => n.startsWith('b-')).sort();
  // This package has the whole CLI's entry only (the real one adds the light bundle's, cli/light-main.ts).
  const ONLY_MAIN = { main: 'cli/main.ts' };

  it('builds once, reuses while nothing changed, and survives a touch without rebuilding', async () => {
    const first = await bundleOf(root, cache, ONLY_MAIN);
    expect(await load(first)).toBe('answer 1');
    const manifest = JSON.parse(readFileSync(join(cache, 'current.json'), 'utf8')) as { inputs: Array<[string, number, number, string]> };
    expect(manifest.inputs.map((i) => i[0])).toEqual(['cli/dep.ts', 'cli/main.ts']);
    expect(await bundleOf(root, cache, ONLY_MAIN)).toBe(first);
    // A checkout that rewrites a file with the same content: same bundle, and the new mtime is remembered.
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, 'cli', 'dep.ts'), later, later);
    expect(await bundleOf(root, cache, ONLY_MAIN)).toBe(first);
    const after = JSON.parse(readFileSync(join(cache, 'current.json'), 'utf8')) as { inputs: Array<[string, number, number, string]> };
    expect(after.inputs.find((i) => i[0] === 'cli/dep.ts')![2]).toBe(statSync(join(root, 'cli', 'dep.ts')).mtimeMs);
    expect(bundles()).toHaveLength(1);
  });

  it('rebuilds when an imported file changes, even to the same size, and runs the new code', async () => {
    const before = await bundleOf(root, cache, ONLY_MAIN);
    write('cli/dep.ts', 'export const answer: number = 2;\n'); // same length as before
    const after = await bundleOf(root, cache, ONLY_MAIN);
    expect(after).not.toBe(before);
    expect(await load(after)).toBe('answer 2');
    // A file the bundle newly imports is found through the edit of its importer.
    write('cli/extra.ts', 'export const extra = 40;\n');
    write('cli/main.ts', "import { answer } from './dep.js';\nimport { extra } from './extra.js';\nexport const main = (): string => `answer ${answer + extra}`;\n");
    expect(await load(await bundleOf(root, cache, ONLY_MAIN))).toBe('answer 42');
    write('cli/extra.ts', 'export const extra = 41;\n');
    expect(await load(await bundleOf(root, cache, ONLY_MAIN))).toBe('answer 43');
  });

  it('runs a build whose sources were saved during it, but does not cache it: the next use builds again', async () => {
    const before = readFileSync(join(cache, 'current.json'), 'utf8');
    writeFileSync(join(root, 'cli', 'extra.ts'), 'export const extra = 50;\n'); // saved just now
    expect(await load(await bundleOf(root, cache, ONLY_MAIN))).toBe('answer 52');
    expect(readFileSync(join(cache, 'current.json'), 'utf8')).toBe(before);
    write('cli/extra.ts', 'export const extra = 51;\n');
    expect(await load(await bundleOf(root, cache, ONLY_MAIN))).toBe('answer 53');
    expect(readFileSync(join(cache, 'current.json'), 'utf8')).not.toBe(before);
  });

  it('keeps bundles in use, removes ones unused for a week and what killed builds left', async () => {
    const current = dirname(await bundleOf(root, cache, ONLY_MAIN));
    const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000);
    const old = join(cache, 'b-0000000000000000');
    const recent = join(cache, 'b-1111111111111111');
    const staging = join(cache, '.staging-1-deadbeef');
    for (const [dir, h] of [[old, 8 * 24], [recent, 6 * 24], [staging, 2]] as const) {
      mkdirSync(dir, { recursive: true });
      utimesSync(dir, hoursAgo(h), hoursAgo(h));
    }
    // A use of the current bundle marks it (its directory's time), at most hourly.
    utimesSync(current, hoursAgo(8 * 24), hoursAgo(8 * 24));
    expect(dirname(await bundleOf(root, cache, ONLY_MAIN))).toBe(current);
    expect(Date.now() - statSync(current).mtimeMs).toBeLessThan(60_000);
    // The next build prunes.
    write('cli/extra.ts', 'export const extra = 60;\n');
    expect(await load(await bundleOf(root, cache, ONLY_MAIN))).toBe('answer 62');
    expect(existsSync(old)).toBe(false);
    expect(existsSync(staging)).toBe(false);
    expect(existsSync(recent)).toBe(true);
    expect(existsSync(current)).toBe(true);
  });

  it('four builds at once into one empty cache, in one process, all succeed (esbuild\'s service is shared)', async () => {
    const empty = join(t.path, 'cache-at-once');
    const entries = await Promise.all([1, 2, 3, 4].map(() => bundleOf(root, empty, ONLY_MAIN)));
    expect(new Set(entries).size).toBe(1);
    expect(await load(entries[0]!)).toBe(await load(await bundleOf(root, cache, ONLY_MAIN)));
    expect(readdirSync(empty).filter((n) => n.startsWith('.staging-'))).toEqual([]);
  });

  it('rebuilds from a damaged manifest instead of failing', async () => {
    writeFileSync(join(cache, 'current.json'), '{"format": 1, "inputs": "nope"');
    expect(await load(await bundleOf(root, cache, ONLY_MAIN))).toBe('answer 62');
    const manifest = JSON.parse(readFileSync(join(cache, 'current.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(cache, 'current.json'), JSON.stringify({ ...manifest, bundle: '../../etc', inputs: [] }));
    const entry = await bundleOf(root, cache, ONLY_MAIN);
    expect(entry.startsWith(join(cache, 'b-'))).toBe(true);
    // A damaged entry in the input list: rebuilt, not stuck on the slow path.
    const good = JSON.parse(readFileSync(join(cache, 'current.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(cache, 'current.json'), JSON.stringify({ ...good, inputs: [5, null] }));
    expect(await load(await bundleOf(root, cache, ONLY_MAIN))).toBe('answer 62');
  });

  it('rebuilds when only protocol/\'s barrel changes (the flattening plugin reads it, esbuild does not load it)', async () => {
    // A package of its own: protocol/'s barrel names the module each name comes from, and the bundle imports that module.
    const pkg = join(t.path, 'barrel-pkg');
    const dir = join(t.path, 'barrel-cache');
    mkdirSync(join(pkg, 'cli'), { recursive: true });
    mkdirSync(join(pkg, 'protocol'), { recursive: true });
    const put = (rel: string, text: string) => {
      writeFileSync(join(pkg, rel), text);
      const past = new Date(Date.now() - 60_000 - ++age * 1000);
      utimesSync(join(pkg, rel), past, past);
    };
    put('cli/main.ts', "import { answer } from '../protocol/index.js';\nexport const main = (): string => `answer ${answer}`;\n");
    put('protocol/a.ts', 'export const answer = 1;\n');
    put('protocol/c.ts', 'export const answer = 3;\n');
    put('protocol/index.ts', "export * from './a.js';\n");
    expect(await load(await bundleOf(pkg, dir, ONLY_MAIN))).toBe('answer 1');
    // The sources now take `answer` from c.ts (tsx would print 3); nothing the bundle loaded changed.
    put('protocol/index.ts', "export * from './c.js';\n");
    expect(await load(await bundleOf(pkg, dir, ONLY_MAIN))).toBe('answer 3');
    // A module the barrel lists decides where names come from even when the bundle never loads it: it is tracked too.
    put('protocol/index.ts', "export * from './c.js';\nexport * from './d.js';\n");
    put('protocol/d.ts', 'export const other = 4;\n');
    expect(await load(await bundleOf(pkg, dir, ONLY_MAIN))).toBe('answer 3');
    expect(bundleInputs(dir)).toEqual(['cli/main.ts', 'protocol/c.ts', 'protocol/d.ts', 'protocol/index.ts']);
  });

  it("loads https and tls for ws's client only on a secure connection (wsSecureModulesOnUse, disk/bundle-plugins.js)", async () => {
    // The CLI bundles ws (the orchestrator's endpoints, `parley agent --connect`): its client module requires
    // https and tls at load. The plugin rewrites both lines by exact match; if a ws release changes them the
    // module is bundled as it is, and this fails to say so (the agent bundle no longer holds ws: agent-node/ws/).
    const code = readFileSync((await cliBundle())!, 'utf8');
    expect(code).toContain('https={get request(){return require("https").request}}');
    expect(code).toContain('={connect:(...args)=>require("tls").connect(...args)}');
    expect(code).not.toMatch(/\b(?:const |var |let )?https\d*=require\("(?:node:)?https"\)/);
    expect(code).not.toMatch(/\b(?:const |var |let )?tls\d*=require\("(?:node:)?tls"\)/);
  });

  it('code in the CLI bundle finds shipped files through the package root: no file path from its own location', async () => {
    // Every source file the real CLI bundle was built from (the manifest bin/parley.js keeps, brought up to date first).
    const bundle = await cliBundle();
    expect(bundle).toMatch(/main\.cjs$/);
    // Pure ASCII, so bin/cli-code-cache.js reads it as a one-byte string (esbuild escapes strings, not a regular
    // expression's characters: write those as \u escapes). Not a correctness matter, ~8 ms of every command.
    expect(isAscii(readFileSync(bundle!))).toBe(true);
    const light = bundleFor(bundle!, 'show');
    expect(light).toBe(join(dirname(bundle!), 'light.cjs'));
    expect(isAscii(readFileSync(light))).toBe(true);
    // Under a third of the whole CLI's (whose SDKs and browsers' server are files of their own beside it,
    // disk/cli-runtime-packages.js): what makes it pay.
    expect(statSync(light).size).toBeLessThan(statSync(bundle!).size / 3);
    const inputs = bundleInputs(cliCacheDir()) ?? [];
    expect(inputs.length).toBeGreaterThan(100);
    // Every static import of a flattened barrel names the module instead (disk/bundle-plugins.js barrelsFlattened):
    // the barrel, which runs every module it lists in a CommonJS bundle, is not in the bundle (its source map lists
    // what is). A name it cannot place brings it back. The barrel is still tracked: the plugin reads it to place names.
    const mapped = (JSON.parse(readFileSync(`${bundle!}.map`, 'utf8')) as { sources: string[] }).sources;
    expect(mapped.some((s) => s.endsWith('protocol/frames.ts'))).toBe(true);
    expect(mapped.some((s) => s.endsWith('run-dir/run-json.ts'))).toBe(true);
    for (const barrel of ['protocol/index.ts', 'run-dir/index.ts', 'scenarios/index.ts', 'simulation/index.ts', 'orchestrator/run/index.ts']) {
      expect(mapped.filter((s) => s.endsWith(`/${barrel}`)), barrel).toEqual([]);
      expect(inputs).toContain(barrel);
    }
    const located: string[] = [];
    for (const rel of inputs) {
      if (!rel.endsWith('.ts')) continue;
      const src = readFileSync(join(REPO, rel), 'utf8');
      // Allowed: resolving packages from here (createRequire(import.meta.url)) and disk/package-root.ts's fallback.
      for (const m of src.matchAll(/.*import\.meta\.(url|dirname|filename).*/g)) {
        if (/createrequire\(import\.meta\.url\)/i.test(m[0]) || rel === 'disk/package-root.ts') continue;
        // "Run as a script" guards compare the entry with this module (directly or through realpath): they locate nothing.
        if (/import\.meta\.url === |=== realpathSync\(fileURLToPath\(import\.meta\.url\)\)/.test(m[0])) continue;
        located.push(`${rel}: ${m[0].trim()}`);
      }
    }
    expect(located).toEqual([]);
  });

  it('the CLI answers the same from the bundle and from the sources under tsx (PARLEY_CLI_BUNDLE=0)', async () => {
    const bundled = await parleyCli(['--version'], cleanEnv());
    const sources = await parleyCli(['--version'], cleanEnv({ PARLEY_CLI_BUNDLE: '0' }));
    expect(bundled.code).toBe(0);
    expect(sources).toEqual(bundled);
    const usage = await parleyCli(['run', '--modes', 'nope'], cleanEnv({ PARLEY_CLI_BUNDLE: '0' }));
    const usageBundled = await parleyCli(['run', '--modes', 'nope'], cleanEnv());
    expect(usage.code).toBe(2);
    expect(usageBundled).toEqual(usage);
  });

  it('the light bundle holds the commands bin/parley.js sends it, and they answer as from the sources', async () => {
    expect(Object.keys(LIGHT).sort()).toEqual([...LIGHT_COMMANDS].sort());
    for (const name of LIGHT_COMMANDS) expect(Object.hasOwn(COMMANDS, name), name).toBe(true);
    expect(bundleFor('/x/main.cjs', 'run')).toBe('/x/main.cjs');
    expect(bundleFor('/x/main.cjs', undefined)).toBe('/x/main.cjs');
    for (const args of [['show', '--help'], ['verify', '--bogus'], ['report', join(t.path, 'no-such-run')]]) {
      const bundled = await parleyCli(args, cleanEnv());
      expect(bundled, args.join(' ')).toEqual(await parleyCli(args, cleanEnv({ PARLEY_CLI_BUNDLE: '0' })));
    }
  });

  it('PARLEY_CLI_BUNDLE takes 0 or 1 and refuses anything else: one line naming it, exit 2, nothing written', async () => {
    const out = join(t.path, 'refused-run');
    for (const value of ['off', 'false', 'yes']) {
      const refused = await parleyCli(['run', '--scenarios', 'builtin', '--limit', '1', '--out', out], cleanEnv({ PARLEY_CLI_BUNDLE: value }));
      expect(refused).toEqual({ code: 2, stdout: '', stderr: `parley: PARLEY_CLI_BUNDLE: expected 0 (off) or 1 (on), got "${value}"` });
      expect(existsSync(out)).toBe(false);
    }
    // The agent processes' switches too, refused by the command before it loads or writes anything.
    for (const name of ['PARLEY_WORKER_BUNDLE', 'PARLEY_WORKER_SNAPSHOT']) {
      const refused = await parleyCli(['run', '--scenarios', 'builtin', '--limit', '1', '--out', out], cleanEnv({ [name]: 'off' }));
      expect(refused).toEqual({ code: 2, stdout: '', stderr: `parley run: ${name}: expected 0 (off) or 1 (on), got "off"` });
      expect(existsSync(out)).toBe(false);
    }
    // And the agent processes' priority (a NaN used to run them at nice 0 without a word).
    const badNice = await parleyCli(['run', '--scenarios', 'builtin', '--limit', '1', '--out', out], cleanEnv({ PARLEY_WORKER_NICE: 'low' }));
    expect(badNice).toEqual({ code: 2, stdout: '', stderr: 'parley run: PARLEY_WORKER_NICE: expected a whole number from 0 (the orchestrator\'s priority) to 19 (the lowest), got "low"' });
    expect(existsSync(out)).toBe(false);
    // And the HTTP server's connection caps (read where the server starts: refused after the run had begun).
    for (const name of ['PARLEY_MAX_CONNECTIONS', 'PARLEY_MAX_CONNECTIONS_PER_ADDRESS']) {
      const refused = await parleyCli(['run', '--scenarios', 'builtin', '--limit', '1', '--out', out], cleanEnv({ [name]: 'many' }));
      expect(refused).toEqual({ code: 2, stdout: '', stderr: `parley run: ${name}: expected a whole number from 1 to 1000000, got "many"` });
      expect(existsSync(out)).toBe(false);
    }
    // And the agent processes' node flags (read where a pool starts): node's own refusal, before the run begins.
    const badArgs = await parleyCli(['run', '--scenarios', 'builtin', '--limit', '1', '--out', out], cleanEnv({ PARLEY_WORKER_NODE_ARGS: '--stack-size=900 --no-such-flag' }));
    expect(badArgs).toEqual({ code: 2, stdout: '', stderr: expect.stringMatching(/^parley run: PARLEY_WORKER_NODE_ARGS: node refuses these flags \(\S*node: bad option: --no-such-flag\)$/) });
    expect(existsSync(out)).toBe(false);
    expect((await parleyCli(['--version'], cleanEnv({ PARLEY_WORKER_NODE_ARGS: '--stack-size=900' }))).code).toBe(0);
    // And the shared rate limit's window (tests shorten it; read where a queue worker's gate is made).
    const badWindow = await parleyCli(['run', '--scenarios', 'builtin', '--limit', '1', '--out', out], cleanEnv({ PARLEY_RATE_WINDOW_SECONDS: '90' }));
    expect(badWindow).toEqual({ code: 2, stdout: '', stderr: 'parley run: PARLEY_RATE_WINDOW_SECONDS: expected a whole number of seconds from 1 to 60, got "90"' });
    expect(existsSync(out)).toBe(false);
    // And the shared limits' Redis (parley worker sets it for its agent processes; a typo reached ioredis).
    const badRedis = await parleyCli(['run', '--scenarios', 'builtin', '--limit', '1', '--out', out], cleanEnv({ PARLEY_RATE_LIMIT_REDIS: 'localhost:6379' }));
    expect(badRedis).toEqual({ code: 2, stdout: '', stderr: expect.stringMatching(/^parley run: PARLEY_RATE_LIMIT_REDIS \(set by parley worker for its agent processes\): expected redis:\/\/.*, got "localhost:6379"$/) });
    expect(existsSync(out)).toBe(false);
    const on = await parleyCli(['--version'], cleanEnv({ PARLEY_CLI_BUNDLE: '1' }));
    expect(on).toEqual(await parleyCli(['--version'], cleanEnv()));
    expect(on.code).toBe(0);
  });
});
