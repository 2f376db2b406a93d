import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';

/** One import edge: `file` (repository-relative, posix) names `specifier` at `line`. */
export interface ImportEdge {
  file: string;
  line: number;
  specifier: string;
  /** Repository-relative target without extension, for a project file; null for a package. */
  target: string | null;
}

const SKIP_DIRS = new Set(['node_modules', '.git', 'runs', 'coverage']);

/** Every `.ts` file below `root` (repository-relative, posix), skipping dependencies and run output. */
export function sourceFiles(root: string, dir = root): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || SKIP_DIRS.has(entry.name)) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(root, full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(relative(root, full).split(sep).join('/'));
  }
  return out;
}

/**
 * Blanks comments out of TypeScript source, keeping string literals and line breaks (so offsets still
 * give line numbers). A scanner, not a parser: enough to find import specifiers, which are always plain
 * string literals. Regex literals are not recognised; a `'` or `//` inside one could hide the rest of its
 * line, which no file of this tree does in an import position.
 */
export function stripComments(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      while (i < text.length && text[i] !== '\n') (out += ' '), i++;
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if (c === '"' || c === "'" || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

const PATTERNS = [
  // import x from '…', import type { X } from '…', export { x } from '…', export * from '…'
  /\b(?:import|export)\b[^;'"`]*?\bfrom\s*(['"])([^'"]+)\1/g,
  // import '…' (side effect)
  /\bimport\s*(['"])([^'"]+)\1/g,
  // import('…') (dynamic)
  /\bimport\s*\(\s*(['"])([^'"]+)\1\s*\)/g,
];

/** The import specifiers of one source text, with line numbers. */
export function importSpecifiers(text: string): { specifier: string; line: number }[] {
  const code = stripComments(text);
  const found = new Map<number, { specifier: string; line: number }>();
  for (const re of PATTERNS) {
    for (const m of code.matchAll(re)) {
      const at = m.index! + m[0].lastIndexOf(m[2]!);
      if (!found.has(at)) found.set(at, { specifier: m[2]!, line: code.slice(0, at).split('\n').length });
    }
  }
  return [...found.entries()].sort((a, b) => a[0] - b[0]).map(([, v]) => v);
}

/** `package.json` `imports` (`#name` → `./path`), resolved like a relative import from the root. */
function packageImports(root: string): Record<string, string> {
  try {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { imports?: Record<string, unknown> };
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(pkg.imports ?? {})) {
      const path = typeof v === 'string' ? v : typeof v === 'object' && v !== null ? (v as Record<string, unknown>)['default'] : undefined;
      if (typeof path === 'string') out[k] = path;
    }
    return out;
  } catch {
    return {};
  }
}

const withoutExtension = (p: string) => p.replace(/\.(?:[cm]?[jt]s|tsx?)$/, '');

/**
 * Each file's specifiers, kept while its size and mtime stay the same: the boundary tests scan the same
 * ~700 files once per case (each case plants one file), and reading and scanning them all again was 2.5 s.
 */
const scanned = new Map<string, { size: number; mtimeMs: number; specifiers: ReturnType<typeof importSpecifiers> }>();
function specifiersOf(path: string): ReturnType<typeof importSpecifiers> {
  const { size, mtimeMs } = statSync(path);
  const known = scanned.get(path);
  if (known && known.size === size && known.mtimeMs === mtimeMs) return known.specifiers;
  const specifiers = importSpecifiers(readFileSync(path, 'utf8'));
  scanned.set(path, { size, mtimeMs, specifiers });
  return specifiers;
}

/** The import graph of every `.ts` file below `root`. */
export function importGraph(root: string): ImportEdge[] {
  const aliases = packageImports(root);
  const edges: ImportEdge[] = [];
  for (const file of sourceFiles(root)) {
    for (const { specifier, line } of specifiersOf(join(root, file))) {
      let target: string | null = null;
      if (specifier.startsWith('.')) target = withoutExtension(posix.normalize(posix.join(posix.dirname(file), specifier)));
      else if (aliases[specifier] !== undefined) target = withoutExtension(posix.normalize(aliases[specifier]!));
      edges.push({ file, line, specifier, target });
    }
  }
  return edges;
}

/** The top-level directory of a repository-relative path ('' for a root file). */
export function topModule(path: string): string {
  const slash = path.indexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

