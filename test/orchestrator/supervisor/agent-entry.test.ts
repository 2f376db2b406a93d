import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT_ENV } from '../../../disk/package-root.js';
import { REPO } from '../../helpers/processes.js';
import { AGENT_ENTRY_NAME, agentEntry, agentEnv } from '../../../orchestrator/supervisor/agent-entry.js';
import { bundledWorker } from '../../../orchestrator/supervisor/worker-bundle.js';
import { WorkerPool } from '../../../orchestrator/supervisor/worker-pool.js';

const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { imports: Record<string, string>; dependencies: Record<string, string> };

describe('the agent process entry: a declared dependency of the supervisor', () => {
  it('is the package\'s named entry, resolved through package.json', () => {
    expect(pkg.imports[AGENT_ENTRY_NAME]).toBe('./agent-node/worker.ts');
    expect(agentEntry()).toBe(join(REPO, 'agent-node', 'worker.ts'));
    expect(existsSync(agentEntry())).toBe(true);
  });

  it('is bundled by esbuild declared (pinned exactly) by this package, not borrowed from tsx', () => {
    expect(pkg.dependencies['esbuild']).toMatch(/^\d+\.\d+\.\d+$/);
    const ours = createRequire(join(REPO, 'package.json'));
    expect(JSON.parse(readFileSync(ours.resolve('esbuild/package.json'), 'utf8')).version).toBe(pkg.dependencies['esbuild']);
  });

  it('bundles without rewriting the sources, and the bundle starts as an agent process that says ready', async () => {
    const bundle = await bundledWorker(agentEntry());
    expect(bundle).toMatch(/worker\.mjs$/);
    // No source file's location is written into the bundle (the old import.meta.url rewriting did).
    expect(readFileSync(bundle, 'utf8')).not.toContain(pathToFileURL(REPO).href);
    const pool = new WorkerPool({ size: 1, bundle: true });
    try {
      await pool.start();
      expect(pool.pids).toHaveLength(1);
    } finally {
      await pool.close();
    }
  });

  it('keeps the LLM SDKs out of what a bot-only process loads: they are in chunks reached only through dynamic imports', async () => {
    const bundle = await bundledWorker(agentEntry());
    // Everything the entry loads at start: itself and the chunks it imports statically, transitively.
    const eager = new Set<string>();
    const visit = (file: string) => {
      if (eager.has(file)) return;
      eager.add(file);
      const code = readFileSync(file, 'utf8');
      for (const m of code.matchAll(/^import\s+(?:[^'"]*?\sfrom\s+)?["'](\.\/[^"']+)["']/gm)) visit(join(dirname(file), m[1]!));
    };
    visit(bundle);
    expect(eager.size).toBeGreaterThan(1);
    // The SDKs are bundled (one file instead of hundreds to resolve): a string only each SDK's own code holds
    // marks it (OpenAI's Stainless request headers, Mistral's Speakeasy user agent). Not their default
    // endpoints: the provider registry (llm/providers/) names those as data, and a bot process may load it.
    const SDK_CODE = /x-stainless-lang|speakeasy-sdk\/typescript/i;
    // Any way of loading an SDK package from node_modules instead: a static import, a dynamic import, a require.
    const SDK_PACKAGE = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^import\s*)["'](?:openai|@mistralai\/[^"']*)["']/m;
    for (const file of eager) {
      const code = readFileSync(file, 'utf8');
      expect(code, file).not.toMatch(SDK_CODE);
      expect(code, file).not.toMatch(SDK_PACKAGE);
      expect(code, file).not.toMatch(/\bLlmPolicy = class\b|\bclass LlmPolicy\b/);
    }
    // ...and both SDKs are still there, in the chunks the LLM policies import on first use.
    const lazy = readdirSync(dirname(bundle)).map((f) => join(dirname(bundle), f)).filter((f) => f.endsWith('.mjs') && !eager.has(f));
    const lazyCode = lazy.map((f) => readFileSync(f, 'utf8')).join('\n');
    expect(lazyCode).toMatch(/x-stainless-lang/i);
    expect(lazyCode).toMatch(/speakeasy-sdk\/typescript/);
    expect(readFileSync(bundle, 'utf8')).toMatch(/import\(["']\.\/chunk-[^"']+\.mjs["']\)/);
  });

  it('loads https and tls only for a secure connection (the seat\'s wss:// client, an https:// model server)', async () => {
    const bundle = await bundledWorker(agentEntry());
    const code = readdirSync(dirname(bundle)).filter((f) => f.endsWith('.mjs')).map((f) => readFileSync(join(dirname(bundle), f), 'utf8')).join('\n');
    // The seat's WebSocket client (agent-node/ws/ws-client.ts) fetches tls on its first wss: dial, and the
    // light OpenAI path (llm/http1-pool.ts) imports it for its first https: origin...
    expect(code).toMatch(/=> process\.getBuiltinModule\("node:tls"\)/);
    expect(code).toMatch(/tls \?\?= import\("node:tls"\)/);
    // ...and nothing loads tls or https at start: no static import, no require, and ws is not in the bundle.
    expect(code).not.toMatch(/from ["'](?:node:)?(?:https|tls)["']/);
    expect(code).not.toMatch(/require\(["'](?:node:)?(?:https|tls)["']\)/);
    expect(code).not.toContain('// node_modules/ws/');
  });

  it("carries zod's English messages and none of its other locales (half of zod, parsed by every process)", async () => {
    const bundle = await bundledWorker(agentEntry());
    const code = readdirSync(dirname(bundle)).filter((f) => f.endsWith('.mjs')).map((f) => readFileSync(join(dirname(bundle), f), 'utf8')).join('\n');
    expect(code).toContain('// node_modules/zod/v4/locales/en.js');
    // German and Japanese: zod's own messages for an invalid input, in its de and ja locales.
    expect(code).not.toContain('// node_modules/zod/v4/locales/de.js');
    expect(code).not.toMatch(/Ungültige Eingabe|無効な入力/);
  });

  it("leaves out the protocol/ modules a seat never uses (their zod schemas would be built at every start)", async () => {
    const bundle = await bundledWorker(agentEntry());
    const code = readdirSync(dirname(bundle)).filter((f) => f.endsWith('.mjs')).map((f) => readFileSync(join(dirname(bundle), f), 'utf8')).join('\n');
    // The seat's frames are there; the run records' and evaluations' schemas (reached only through the
    // protocol/index.ts barrel) are not: protocolWithoutSideEffects, disk/bundle-plugins.js.
    expect(code).toContain('// protocol/frames.ts');
    expect(code).not.toContain('// protocol/record.ts');
    expect(code).not.toContain('// protocol/evaluation.ts');
  });

  it('tells each agent process where the package is, keeping a root the parent was given', () => {
    expect(agentEnv({})[PACKAGE_ROOT_ENV]).toBe(resolve(REPO));
    expect(agentEnv({ [PACKAGE_ROOT_ENV]: '/elsewhere' })[PACKAGE_ROOT_ENV]).toBe('/elsewhere');
  });
});
