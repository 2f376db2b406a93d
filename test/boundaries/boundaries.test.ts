import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe as group, expect, it } from 'vitest';
import { REPO, tempDir } from '../helpers/processes.js';
import { checkBoundaries, describe } from './check.js';
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

  it('the real tree imports nothing the architecture forbids', () => {
    const edges = importGraph(REPO);
    // The scan must see the tree, or passing means nothing.
    expect(edges.filter((e) => e.target !== null).length).toBeGreaterThan(500);
    expect(edges.some((e) => e.file === 'orchestrator/observe.ts' && e.target === 'protocol/index')).toBe(true);
    expect(checkBoundaries(REPO).map(describe)).toEqual([]);
  });

  it.each([
    ['agent-node/forbidden.ts', "import { builtinScenarios } from '../scenarios/builtin.js';\nexport const x = builtinScenarios;\n", 'agent-node/ never imports scenarios/'],
    ['orchestrator/forbidden.ts', "export { evaluateRun } from '../evaluator/evaluate-run.js';\n", 'orchestrator/ never imports evaluator/'],
    ['evaluator/forbidden.ts', "const m = await import('../orchestrator/observe.js');\nexport default m;\n", 'evaluator/ never imports orchestrator/'],
    ['protocol/forbidden.ts', "import type { Scenario } from '../scenarios/model.js';\nexport type S = Scenario;\n", 'protocol/ never imports scenarios/'],
    ['web/client.ts', "import '../orchestrator/world.js';\n", 'web/ never imports orchestrator/'],
    ['training/examples.ts', "import { Episode } from '../orchestrator/episode.js';\nexport { Episode };\n", 'training/ never imports orchestrator/'],
    ['queue/internal.ts', "export { planEpisodes } from '../orchestrator/run/plan.js';\n", 'queue/ never imports orchestrator/'],
  ])('a forbidden import added in a copy of the tree (%s) fails the check', (file, text, says) => {
    expect(checkBoundaries(root)).toEqual([]);
    withFile(file, text, () => {
      const found = checkBoundaries(root).map(describe);
      expect(found).toHaveLength(1);
      expect(found[0]).toContain(`${file}:1`);
      expect(found[0]).toContain(says);
    });
  });

  it('training/ may use the projection and the prompt renderer: the one allowed exception', () => {
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
