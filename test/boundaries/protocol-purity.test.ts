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
  return problems;
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
});
