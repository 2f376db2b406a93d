import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAst } from 'vite';
import { isTestFile } from '../boundaries/check.js';

/**
 * How long each function of the production source is (issue 34, Contract 4: none over 80 lines). A function
 * is a declaration, an expression, an arrow with a block body or a method; its length is the lines from its
 * first to its last, inner functions included (a long callback makes its host long too). Production
 * source: the `.ts` files git tracks that are not tests (`test/`, `*.test.ts`, `testing/`). Parsed by the
 * TypeScript parser Vite ships (oxc), so strings, templates and regular expressions never fool it.
 */
export const MAX_FUNCTION_LINES = 80;

export interface FunctionLength {
  file: string;
  name: string;
  line: number;
  lines: number;
}

interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

const FUNCTION_TYPES = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

function isNode(v: unknown): v is Node {
  return typeof v === 'object' && v !== null && typeof (v as Node).type === 'string';
}

/** The name a reader would search for: the declaration's, the variable's, the method's or property's key. */
function nameOf(fn: Node, parent: Node | null): string {
  const id = fn['id'] as Node | null | undefined;
  if (id && typeof id['name'] === 'string') return id['name'];
  const key = (parent?.['id'] ?? parent?.['key']) as Node | undefined;
  if (key && typeof key['name'] === 'string') return key['name'];
  return '(anonymous)';
}

/** Every function of one file with its length in lines. */
export function functionLengths(file: string, text: string): FunctionLength[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  const lineAt = (offset: number) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const out: FunctionLength[] = [];
  const visit = (node: Node, parent: Node | null) => {
    if (FUNCTION_TYPES.has(node.type) && (node.type !== 'ArrowFunctionExpression' || !node['expression'])) {
      const line = lineAt(node.start);
      out.push({ file, name: nameOf(node, parent), line, lines: lineAt(node.end - 1) - line + 1 });
    }
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) for (const v of value) isNode(v) && visit(v, node);
      else if (isNode(value)) visit(value, node);
    }
  };
  visit(parseAst(text, { lang: 'ts' }, file) as unknown as Node, null);
  return out;
}

/** The production `.ts` files of the repository at `root` (tracked by git, not tests). */
export function productionFiles(root: string): string[] {
  const files = execFileSync('git', ['ls-files', '-z', '--', '*.ts'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
  return files.filter((f) => !isTestFile(f) && !f.endsWith('.d.ts'));
}

/** The production functions over `max` lines, longest first. */
export function longFunctions(root: string, max = MAX_FUNCTION_LINES): FunctionLength[] {
  return productionFiles(root)
    .flatMap((f) => functionLengths(f, readFileSync(join(root, f), 'utf8')))
    .filter((f) => f.lines > max)
    .sort((a, b) => b.lines - a.lines);
}
