import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_ERROR_CODES } from '../../protocol/codes.js';
import { REPO } from '../helpers/processes.js';
import { isTestFile } from './check.js';
import { sourceFiles, stripComments } from './import-graph.js';

/**
 * Issue 22, "one code registry": a code-shaped string literal (`'area/reason'`, for every area the registry
 * uses) may appear only in the registry, protocol/codes.ts; every other file names a code by its constant
 * (`RunErrorCode.Busy`), so the compiler checks it exists. The registry's own literals must all be in its
 * exported set (`ALL_ERROR_CODES`), which the record schemas' enum is built from.
 */
const REGISTRY = 'protocol/codes.ts';

const AREAS = ['protocol', 'seat', 'turn', 'script', 'policy', 'connection', 'internal', 'llm', 'scenarios', 'run', 'bot', 'judge', 'queue', 'eval'];

const CODE = new RegExp(`(['"\`])((?:${AREAS.join('|')})/[a-z_]+)\\1`, 'g');

/** Every code-shaped literal of the source (tests excluded), as `file: code`. */
function codeLiterals(): string[] {
  const found = new Set<string>();
  for (const file of sourceFiles(REPO)) {
    if (isTestFile(file) || file.startsWith('testkit/') || file.startsWith('bench/')) continue;
    for (const m of stripComments(readFileSync(join(REPO, file), 'utf8')).matchAll(CODE)) found.add(`${file}: ${m[2]}`);
  }
  return [...found].sort();
}

describe('code-shaped literals across the whole source', () => {
  const found = codeLiterals();

  it('appear only in the registry', () => {
    expect(found.filter((f) => !f.startsWith(`${REGISTRY}: `))).toEqual([]);
  });

  it("are all in the registry's set, which the record schemas' enum is built from", () => {
    const inRegistry = found.filter((f) => f.startsWith(`${REGISTRY}: `)).map((f) => f.slice(REGISTRY.length + 2));
    // Not vacuous: the scan finds the registry's own codes, one per entry.
    expect(inRegistry.length).toBe(ALL_ERROR_CODES.size);
    expect(inRegistry.filter((c) => !ALL_ERROR_CODES.has(c))).toEqual([]);
  });

  it('the scan sees a literal in any quoting, and none in a comment', () => {
    const text = stripComments("const a = 'judge/x'; const b = \"run/y\"; const c = `llm/z`; // 'seat/w'\n");
    expect([...text.matchAll(CODE)].map((m) => m[2])).toEqual(['judge/x', 'run/y', 'llm/z']);
  });
});
