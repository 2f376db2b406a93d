import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, describe, expect, it } from 'vitest';
import { cliBundle } from '../bin/cli-bundle.mjs';
import { CLI_RUNTIME_PACKAGES } from '../disk/cli-runtime-packages.js';
import { tempDir } from './helpers/processes.js';

const requireHere = createRequire(import.meta.url);
const { loadWithCodeCache } = requireHere('../bin/cli-code-cache.js') as {
  loadWithCodeCache(file: string, key: string, known: () => boolean): Record<string, unknown>;
};

/**
 * Every `parley` process reads its whole bundle and deserialises a code cache that declares every module of
 * it; the Mistral SDK (1.34 MB of 4.23) is kept beside main.cjs instead and loaded at its first import
 * (disk/cli-runtime-packages.js). test/finetune-cli and test/eval-batch run `mistral:` paths through it.
 */
describe('packages kept beside the CLI bundle (disk/cli-runtime-packages.js)', () => {
  const t = tempDir('cli-runtime');
  afterAll(() => t.remove());

  it('main.cjs and light.cjs hold no module of the Mistral SDK; mistral.cjs holds one copy, by every listed specifier', async () => {
    const entry = await cliBundle();
    expect(entry).not.toBeNull();
    const dir = dirname(entry!);
    // The SDK's own minimal client class (llm/mistral-sdk.ts names MistralCore, so its name alone would not do).
    const sdkModule = 'MistralCore=class extends ClientSDK';
    expect(readFileSync(join(dir, 'main.cjs'), 'latin1')).not.toContain(sdkModule);
    expect(readFileSync(join(dir, 'light.cjs'), 'latin1')).not.toContain(sdkModule);
    expect(readFileSync(join(dir, 'mistral.cjs'), 'latin1')).toContain(sdkModule);
    const runtime = requireHere(join(dir, 'mistral.cjs')) as Record<string, Record<string, unknown>>;
    expect(Object.keys(runtime).sort()).toEqual([...CLI_RUNTIME_PACKAGES.mistral].sort());
    // One copy: the error class the client maps is the one the SDK's verdict throws.
    expect(runtime['@mistralai/mistralai/models/errors']!.HTTPValidationError).toBe(runtime['@mistralai/mistralai/models/errors/httpvalidationerror.js']!.HTTPValidationError);
  });

  it('a bundle run through the code cache gets __parleyRuntime: the file beside it, loaded once', () => {
    writeFileSync(join(t.path, 'pkg.cjs'), 'globalThis.__parleyRuntimeLoads = (globalThis.__parleyRuntimeLoads ?? 0) + 1; module.exports = { answer: 42 };\n');
    writeFileSync(join(t.path, 'main.cjs'), 'exports.first = __parleyRuntime("pkg"); exports.second = __parleyRuntime("pkg");\n');
    const main = loadWithCodeCache(join(t.path, 'main.cjs'), 'top', () => false) as { first: { answer: number }; second: unknown };
    expect(main.first.answer).toBe(42);
    expect(main.second).toBe(main.first);
    expect((globalThis as { __parleyRuntimeLoads?: number }).__parleyRuntimeLoads).toBe(1);
  });
});
