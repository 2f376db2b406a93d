import { LAYERS, UNCHECKED_MODULES, type Layer } from './rules.js';
import { importGraph, topModule, type ImportEdge } from './import-graph.js';

/** Something the layering forbids: an import not on the allow-list, a folder with no layer, or a cycle. */
export type BoundaryViolation =
  | { kind: 'not-allowed'; edge: ImportEdge; from: string; to: string; why: string }
  | { kind: 'no-layer'; edge: ImportEdge; module: string }
  | { kind: 'cycle'; modules: string[] };

/** A test file: tests are excluded from the source graph (they may also import `test/` and `testkit/`). */
export function isTestFile(file: string): boolean {
  return file.startsWith('test/') || file.endsWith('.test.ts') || /(^|\/)testing\//.test(file);
}

/** Whether `layer` may import the project file `target` (repository path without extension). */
function mayImport(layer: Layer, target: string, test: boolean): boolean {
  const to = topModule(target);
  if (test && (to === 'test' || to === 'testkit')) return true;
  return layer.imports.some((i) => (typeof i === 'string' ? i === to : i.module === to && i.only.includes(target)));
}

/** Problems of the allow-list itself: an import of a folder that does not rank strictly lower, or of an unknown folder. */
export function checkLayers(layers: readonly Layer[] = LAYERS): string[] {
  const rank = new Map(layers.map((l) => [l.module, l.rank]));
  const problems: string[] = [];
  for (const l of layers) {
    for (const i of l.imports) {
      const to = typeof i === 'string' ? i : i.module;
      const r = rank.get(to);
      if (r === undefined) problems.push(`${l.module}/ may import ${to}/, which has no layer`);
      else if (r >= l.rank) problems.push(`${l.module}/ (rank ${l.rank}) may import ${to}/ (rank ${r}): imports must go down`);
    }
  }
  return problems;
}

/** The cycles of a folder graph (one per strongly connected component of two or more folders, or a self-loop). */
export function folderCycles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  // Tarjan's algorithm; the graph has a dozen nodes, so recursion depth is no concern.
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || graph.get(v)?.has(v)) cycles.push(scc.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) visit(v);
  return cycles;
}

/** The folder-level import graph of the source at `root` (tests excluded): folder → folders it imports. */
export function folderGraph(edges: readonly ImportEdge[]): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const e of edges) {
    if (e.target === null || isTestFile(e.file)) continue;
    const from = topModule(e.file);
    const to = topModule(e.target);
    if (from === to) continue;
    if (!graph.has(from)) graph.set(from, new Set());
    graph.get(from)!.add(to);
  }
  return graph;
}

/** Every violation of the layering in the tree at `root` (empty: the tree keeps the architecture). */
export function checkBoundaries(root: string, layers: readonly Layer[] = LAYERS): BoundaryViolation[] {
  const byModule = new Map(layers.map((l) => [l.module, l]));
  const edges = importGraph(root);
  const violations: BoundaryViolation[] = [];
  for (const edge of edges) {
    if (edge.target === null) continue;
    const from = topModule(edge.file);
    const to = topModule(edge.target);
    if (from === to || UNCHECKED_MODULES.includes(from)) continue;
    const layer = byModule.get(from);
    if (!layer) {
      violations.push({ kind: 'no-layer', edge, module: from });
      continue;
    }
    if (!mayImport(layer, edge.target, isTestFile(edge.file))) violations.push({ kind: 'not-allowed', edge, from, to, why: layer.why });
  }
  for (const modules of folderCycles(folderGraph(edges))) violations.push({ kind: 'cycle', modules });
  return violations;
}

/** One line per violation, naming the file and line of an edge, or the folders of a cycle. */
export function describe(v: BoundaryViolation): string {
  switch (v.kind) {
    case 'not-allowed':
      return `${v.edge.file}:${v.edge.line} imports '${v.edge.specifier}': ${v.from}/ may not import ${v.to}/ (${v.from}/: ${v.why})`;
    case 'no-layer':
      return `${v.edge.file}:${v.edge.line}: folder ${v.module}/ has no layer in test/boundaries/rules.ts`;
    case 'cycle':
      return `folder import cycle among ${v.modules.map((m) => `${m}/`).join(', ')}`;
  }
}
