import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe as group, expect, it } from 'vitest';
import { REPO, tempDir } from '../helpers/processes.js';
import { checkBoundaries, checkLayers, describe, folderCycles, folderGraph } from './check.js';
import { LAYERS } from './rules.js';
import { importGraph, importSpecifiers } from './import-graph.js';

/** A copy of the tree's source (no node_modules), to break on purpose. */
function copyOfTree(dir: string): string {
  const root = join(dir, 'tree');
  cpSync(REPO, root, { recursive: true, filter: (src) => !/[\\/](node_modules|\.git|runs)$/.test(src) });
  return root;
}

group('architecture boundaries', () => {
  // One copy of the tree for the whole file; each test adds its file and takes it away again.
  let dir: { path: string; remove(): void };
  let root: string;
  beforeAll(() => {
    dir = tempDir('boundaries');
    root = copyOfTree(dir.path);
  });
  afterAll(() => dir.remove());
  /** Writes `file` into the copy for the duration of `fn`. */
  const withFile = (file: string, text: string, fn: () => void) => {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), text);
    try {
      fn();
    } finally {
      rmSync(join(root, file));
    }
  };

  it('the real tree imports nothing the architecture forbids, and its folders form no cycle', () => {
    const edges = importGraph(REPO);
    // The scan must see the tree, or passing means nothing.
    expect(edges.filter((e) => e.target !== null).length).toBeGreaterThan(500);
    expect(edges.some((e) => e.file === 'orchestrator/observe.ts' && e.target === 'protocol/index')).toBe(true);
    expect(checkBoundaries(REPO).map(describe)).toEqual([]);
    const graph = folderGraph(edges);
    expect(graph.get('cli')?.has('orchestrator')).toBe(true);
    expect(folderCycles(graph)).toEqual([]);
  });

  it('the allow-list only points down: every folder it lets a folder import ranks strictly lower', () => {
    expect(checkLayers()).toEqual([]);
    // A planted upward entry is caught.
    const upward = LAYERS.map((l) => (l.module === 'llm' ? { ...l, imports: [...l.imports, 'run-dir'] } : l));
    expect(checkLayers(upward)).toEqual(['llm/ (rank 1) may import run-dir/ (rank 3): imports must go down']);
  });

  it('finds the cycle in a planted graph, and none in a chain', () => {
    const g = (pairs: [string, string][]) => {
      const m = new Map<string, Set<string>>();
      for (const [a, b] of pairs) m.set(a, (m.get(a) ?? new Set()).add(b));
      return m;
    };
    expect(folderCycles(g([['a', 'b'], ['b', 'c']]))).toEqual([]);
    expect(folderCycles(g([['a', 'b'], ['b', 'c'], ['c', 'a'], ['c', 'd']]))).toEqual([['a', 'b', 'c']]);
  });

  it.each([
    ['agent-node/forbidden.ts', "import { builtinScenarios } from '../scenarios/builtin.js';\nexport const x = builtinScenarios;\n", 'agent-node/ may not import scenarios/'],
    ['orchestrator/forbidden.ts', "export { evaluateRun } from '../evaluator/evaluate-run.js';\n", 'orchestrator/ may not import evaluator/'],
    ['evaluator/forbidden.ts', "const m = await import('../orchestrator/observe.js');\nexport default m;\n", 'evaluator/ may not import orchestrator/'],
    ['protocol/forbidden.ts', "import type { Scenario } from '../scenarios/model.js';\nexport type S = Scenario;\n", 'protocol/ may not import scenarios/'],
    ['web/client.ts', "import '../orchestrator/world.js';\n", 'web/ may not import orchestrator/'],
    ['training/examples.ts', "import { Episode } from '../orchestrator/episode.js';\nexport { Episode };\n", 'training/ may not import orchestrator/'],
    ['llm/forbidden.ts', "import { RunPaths } from '../run-dir/paths.js';\nexport { RunPaths };\n", 'llm/ may not import run-dir/'],
    ['scenarios/forbidden.ts', "import { parseArgs } from '../cli/args.js';\nexport { parseArgs };\n", 'scenarios/ may not import cli/'],
    ['bench/forbidden.ts', "import { parley } from '../test/helpers/processes.js';\nexport { parley };\n", 'bench/ may not import test/'],
    ['queue/forbidden.ts', "import { run } from '../cli/commands/run.js';\nexport { run };\n", 'queue/ may not import cli/'],
    ['queue/internal.ts', "export { planEpisodes } from '../orchestrator/run/plan.js';\n", 'queue/ may not import orchestrator/'],
  ])('a forbidden (upward or sideways) import planted in a copy of the tree (%s) fails the check', (file, text, says) => {
    expect(checkBoundaries(root)).toEqual([]);
    withFile(file, text, () => {
      const found = checkBoundaries(root).map(describe).filter((d) => !d.startsWith('folder import cycle'));
      expect(found).toHaveLength(1);
      expect(found[0]).toContain(`${file}:1`);
      expect(found[0]).toContain(says);
    });
  });

  it('a planted import that closes a loop is reported as a folder cycle', () => {
    // scenarios/ imports llm/ (the generators' client types); llm/ importing scenarios/ closes a loop.
    withFile('llm/loop.ts', "import type { Scenario } from '../scenarios/model.js';\nexport type S = Scenario;\n", () => {
      const found = checkBoundaries(root).map(describe);
      expect(found).toContain('folder import cycle among llm/, scenarios/');
      expect(found.some((d) => d.startsWith('llm/loop.ts:1') && d.includes('llm/ may not import scenarios/'))).toBe(true);
    });
  });

  it('a new top-level folder needs a layer', () => {
    withFile('newthing/a.ts', "export * from '../protocol/index.js';\n", () => {
      expect(checkBoundaries(root).map(describe)).toEqual(["newthing/a.ts:1: folder newthing/ has no layer in test/boundaries/rules.ts"]);
    });
  });

  it('a test beside the code may use test/ and testkit/, but not a folder its code may not import', () => {
    withFile('agent-node/x.test.ts', "import { startFakeLlmServer } from '../testkit/fake-llm-server.js';\nimport { REPO } from '../test/helpers/processes.js';\nexport { startFakeLlmServer, REPO };\n", () =>
      expect(checkBoundaries(root)).toEqual([]),
    );
    withFile('agent-node/y.test.ts', "import { world } from '../orchestrator/world.js';\nexport { world };\n", () =>
      expect(checkBoundaries(root).map(describe)).toEqual([expect.stringContaining('agent-node/y.test.ts:1')]),
    );
  });

  it('training/ may use the projection and the prompt renderer: the one narrowed import', () => {
    const text = [
      "import { observe } from '../orchestrator/observe.js';",
      "import { agentMessages } from '../agent-node/policies/llm/agent-prompt.js';",
      "import { renderProfile } from '../agent-node/policies/llm/render.js';",
      'export { observe, agentMessages, renderProfile };',
    ].join('\n');
    withFile('training/render.ts', text, () => expect(checkBoundaries(root)).toEqual([]));
    // …and nothing else of the engine.
    withFile('training/engine.ts', "export * from '../orchestrator/world.js';\n", () => expect(checkBoundaries(root)).toHaveLength(1));
    // …nor the renderer through the LLM policies' index, which loads the policy and its provider clients.
    withFile('training/barrel.ts', "export { agentMessages } from '../agent-node/policies/llm/index.js';\n", () => expect(checkBoundaries(root)).toHaveLength(1));
  });

  it('finds specifiers of every import form, and none in comments', () => {
    const text = [
      "import a from './a.js';",
      "import type { B } from '../b.js';",
      'import {',
      '  c,',
      "} from './c.js';",
      "export * from './d.js';",
      "import './e.js';",
      "const f = await import('./f.js');",
      "// import g from './g.js';",
      "/* import h from './h.js'; */",
      "const s = 'see ws://host/x'; // from './i.js'",
    ].join('\n');
    expect(importSpecifiers(text)).toEqual([
      { specifier: './a.js', line: 1 },
      { specifier: '../b.js', line: 2 },
      { specifier: './c.js', line: 5 },
      { specifier: './d.js', line: 6 },
      { specifier: './e.js', line: 7 },
      { specifier: './f.js', line: 8 },
    ]);
  });
});
