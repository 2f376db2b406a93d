import { BOUNDARY_RULES, type BoundaryRule } from './rules.js';
import { importGraph, topModule, type ImportEdge } from './import-graph.js';

/** An import the architecture forbids, with the rule it breaks. */
export interface BoundaryViolation {
  edge: ImportEdge;
  rule: BoundaryRule;
}

/** Every forbidden import in the tree at `root` (empty: the tree keeps the architecture). */
export function checkBoundaries(root: string, rules: readonly BoundaryRule[] = BOUNDARY_RULES): BoundaryViolation[] {
  const violations: BoundaryViolation[] = [];
  for (const edge of importGraph(root)) {
    if (edge.target === null) continue;
    const from = topModule(edge.file);
    const to = topModule(edge.target);
    if (from === to) continue;
    for (const rule of rules) {
      if (rule.from !== from || !rule.never.includes(to)) continue;
      if (rule.except?.includes(edge.target)) continue;
      violations.push({ edge, rule });
    }
  }
  return violations;
}

/** One line per violation: `file:line imports 'spec' — from may never import to (why)`. */
export function describe(v: BoundaryViolation): string {
  return `${v.edge.file}:${v.edge.line} imports '${v.edge.specifier}': ${v.rule.from}/ never imports ${topModule(v.edge.target ?? '')}/ (${v.rule.why})`;
}
