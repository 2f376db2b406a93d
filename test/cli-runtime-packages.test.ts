import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { cliBundle } from '../bin/cli-bundle.mjs';
import { CLI_RUNTIME_PACKAGES, cliRuntimePackages } from '../disk/cli-runtime-packages.js';
import { tempDir } from './helpers/processes.js';

const requireHere = createRequire(import.meta.url);
const ROOT = join(dirname(new URL(import.meta.url).pathname), '..');
const { loadWithCodeCache } = requireHere('../bin/cli-code-cache.js') as {
  loadWithCodeCache(file: string, key: string, known: () => boolean): Record<string, unknown>;
};

/**
 * Every `parley` process reads its whole bundle and deserialises a code cache that declares every module of
 * it; the LLM SDKs, the browsers' server, the shared limiter and tar (2.46 MB of 4.23) are kept beside main.cjs
 * instead and loaded at their first import (disk/cli-runtime-packages.js). The CLI tests run them through it
 * (finetune-cli, eval-batch: both SDKs; human-run, watch-serve: socket.io; pack-verify: tar).
 */
describe('packages kept beside the CLI bundle (disk/cli-runtime-packages.js)', () => {
  const t = tempDir('cli-runtime');
  afterAll(() => t.remove());

  // A class each package's own modules define (a name alone would not do: llm/mistral-sdk.ts names MistralCore).
  const MARKERS: Record<keyof typeof CLI_RUNTIME_PACKAGES, string> = {
    mistral: 'MistralCore=class extends ClientSDK',
    openai: 'APIUserAbortError=class extends APIError',
    socketio: 'BroadcastOperator=class _BroadcastOperator',
    'rate-limiter-flexible': 'RateLimiterRedis=class extends RateLimiterStoreAbstract',
    // tar ships minified: a type name of its headers.
    tar: '"OldExtendedHeader"',
    yaml: 'YAMLParseError=class extends YAMLError',
  };

  it('main.cjs and light.cjs hold no module of those packages; each runtime file holds one copy, by every listed specifier', async () => {
    const entry = await cliBundle();
    expect(entry).not.toBeNull();
    const dir = dirname(entry!);
    const main = readFileSync(join(dir, 'main.cjs'), 'latin1');
    const light = readFileSync(join(dir, 'light.cjs'), 'latin1');
    for (const [name, specifiers] of Object.entries(CLI_RUNTIME_PACKAGES)) {
      const marker = MARKERS[name as keyof typeof MARKERS];
      expect(main, name).not.toContain(marker);
      expect(light, name).not.toContain(marker);
      expect(readFileSync(join(dir, `${name}.cjs`), 'latin1'), name).toContain(marker);
      const runtime = requireHere(join(dir, `${name}.cjs`)) as Record<string, Record<string, unknown>>;
      expect(Object.keys(runtime).sort(), name).toEqual([...specifiers].sort());
    }
    // One copy: the error class the Mistral client maps is the one the SDK's verdict throws; socket.io serves
    // on the engine.io server the endpoint makes (orchestrator/net/socketio-endpoint.ts).
    const mistral = requireHere(join(dir, 'mistral.cjs')) as Record<string, Record<string, unknown>>;
    expect(mistral['@mistralai/mistralai/models/errors']!.HTTPValidationError).toBe(mistral['@mistralai/mistralai/models/errors/httpvalidationerror.js']!.HTTPValidationError);
    const socketio = requireHere(join(dir, 'socketio.cjs')) as Record<string, Record<string, unknown>>;
    expect(socketio['socket.io']!.Server).toBeTypeOf('function');
    expect(socketio['engine.io']!.Server).toBeTypeOf('function');
  });

  it("the plugin's cache key is the same in this process (Vitest's loader) as in a plain node process (every `parley` command's)", async () => {
    // A key holding a function's toString() differed: a test's in-process build of the CLI bundle built it again
    // and left the cache's manifest under its own key, for the next `parley` command to rebuild once more.
    const url = pathToFileURL(join(ROOT, 'disk', 'cli-runtime-packages.js')).href;
    const script = `const m = await import(${JSON.stringify(url)}); process.stdout.write(m.cliRuntimePackages.key);`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]);
    expect(stdout).toBe(cliRuntimePackages.key);
  });

  it('a bundle run through the code cache gets __parleyRuntime: the file beside it, loaded once', () => {
    writeFileSync(join(t.path, 'pkg.cjs'), 'globalThis.__parleyRuntimeLoads = (globalThis.__parleyRuntimeLoads ?? 0) + 1; module.exports = { answer: 42 };\n');
    writeFileSync(join(t.path, 'main.cjs'), 'exports.first = __parleyRuntime("pkg"); exports.second = __parleyRuntime("pkg");\n');
    const main = loadWithCodeCache(join(t.path, 'main.cjs'), 'top', () => false) as { first: { answer: number }; second: unknown };
    expect(main.first.answer).toBe(42);
    expect(main.second).toBe(main.first);
    expect((globalThis as { __parleyRuntimeLoads?: number }).__parleyRuntimeLoads).toBe(1);
  });

  it('a LAZY runtime file (yaml) is loaded at the first use of one of its exports, not at the import', async () => {
    const { build } = await import('esbuild');
    writeFileSync(join(t.path, 'uses-yaml.ts'), "import { parse } from 'yaml';\nexport const imported = true;\nexport const read = (text: string) => parse(text);\n");
    const out = await build({ entryPoints: [join(t.path, 'uses-yaml.ts')], bundle: true, format: 'cjs', platform: 'node', write: false, absWorkingDir: ROOT, plugins: [cliRuntimePackages.plugin] });
    const loads: string[] = [];
    const runtime = (name: string) => {
      loads.push(name);
      return { yaml: requireHere('yaml') as unknown };
    };
    const module = { exports: {} as { imported?: boolean; read?: (text: string) => unknown } };
    new Function('module', 'exports', 'require', '__parleyRuntime', out.outputFiles[0]!.text)(module, module.exports, requireHere, runtime);
    expect(module.exports.imported).toBe(true);
    expect(loads).toEqual([]);
    expect(module.exports.read!('a: 1\nb: [x]\n')).toEqual({ a: 1, b: ['x'] });
    expect(module.exports.read!('c: 2\n')).toEqual({ c: 2 });
    expect(loads).toEqual(['yaml']);
  });
});
