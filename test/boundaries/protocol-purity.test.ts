import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const PROTOCOL = fileURLToPath(new URL('../../protocol/', import.meta.url));

/** The problems of one protocol/ source file: a package other than zod, or a class (a state machine, a parser). */
function impurities(file: string, text: string): string[] {
  const problems: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\b[^'"]*?\bfrom\s+'([^']+)'/gm)) {
    if (m[1] !== 'zod' && !/^\.\/[\w-]+\.js$/.test(m[1]!)) problems.push(`${file} imports ${m[1]}`);
  }
  if (/^\s*(?:export\s+)?(?:abstract\s+)?class\s/m.test(text)) problems.push(`${file} declares a class`);
  problems.push(...sideEffects(file, text));
  return problems;
}

/**
 * The top-level side effects of one protocol/ source file: a statement that is not a declaration (a call,
 * an assignment), a zod registry or global config, a global. The agent and CLI bundles declare protocol/
 * free of side effects (protocolWithoutSideEffects, disk/bundle-plugins.js), so esbuild silently leaves out a
 * module no bundled code takes an export of, and any such effect with it.
 */
function sideEffects(file: string, text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const statements = code.match(/^(?!(?:export|import|const|let|var|function|type|interface|declare|enum|async)\b)[\w$([].*$/gm) ?? [];
  const globals = code.match(/\.register\(|\bz\.config\(|\bglobalThis\b|\bprocess\./g) ?? [];
  return [...statements, ...globals].map((s) => `${file} has a side effect: ${s.trim()}`);
}

/**
 * Issue 34, Contract 4: protocol/ holds frames, schemas, codes and types only. What else once lived there (a
 * YAML parser, terminal escaping, the seat client's state machine) imported other packages or was a class;
 * this keeps them out: protocol/'s code imports zod and its own files, and declares no class.
 */
describe('protocol/ stays frames, schemas, codes and types', () => {
  it('imports only zod and its own files, and declares no class', () => {
    const files = readdirSync(PROTOCOL).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    expect(files.length).toBeGreaterThan(10);
    expect(files.flatMap((f) => impurities(f, readFileSync(join(PROTOCOL, f), 'utf8')))).toEqual([]);
  });

  it('catches a YAML parser and a state machine', () => {
    expect(impurities('y.ts', "import { parseDocument } from 'yaml';\n")).toEqual(['y.ts imports yaml']);
    expect(impurities('s.ts', "import { z } from 'zod';\nexport class SeatState {}\n")).toEqual(['s.ts declares a class']);
    expect(impurities('t.ts', "import { terminalSafe } from '../text/terminal.js';\n")).toEqual(['t.ts imports ../text/terminal.js']);
  });

  it('has no top-level side effect, which a bundle would drop with a module it does not use (protocolWithoutSideEffects)', () => {
    expect(sideEffects('r.ts', "import * as z from 'zod';\nexport const A = z.object({});\nA.register(z.globalRegistry, { id: 'a' });\n")).toEqual([
      'r.ts has a side effect: A.register(z.globalRegistry, { id: \'a\' });',
      'r.ts has a side effect: .register(',
    ]);
    expect(sideEffects('c.ts', "import * as z from 'zod';\nz.config(z.locales.en());\n")).toHaveLength(2);
    expect(sideEffects('g.ts', 'export const B = 1;\nglobalThis.parleyCodes = {};\n')).toHaveLength(2);
    expect(sideEffects('ok.ts', "import * as z from 'zod';\n// z.config(…) in a comment\n/** A.register(x) */\nexport const A = z\n  .object({})\n  .strict();\nexport type A = z.infer<typeof A>;\n")).toEqual([]);
  });
});
