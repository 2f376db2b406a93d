import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/processes.js';
import { isTestFile } from './check.js';
import { sourceFiles, stripComments } from './import-graph.js';

/**
 * Issue 22, "one code registry", first step: a code-shaped string literal (`'area/reason'`, for every
 * area a code table uses) may appear only in a code table. Today there are five tables (below); the
 * inline literals still outside them are listed in OUTSTANDING, which may only shrink: a new inline code
 * fails this test, and so does a listed one that has moved into a table (take it off the list).
 */
const TABLES = ['protocol/codes.ts', 'llm/errors.ts', 'scenarios/errors.ts', 'orchestrator/run/run-error.ts', 'agent-node/policies/bot/bot-policy.ts'];

const AREAS = ['protocol', 'seat', 'turn', 'script', 'policy', 'connection', 'internal', 'llm', 'scenarios', 'run', 'bot', 'judge', 'queue', 'eval'];

/** Inline codes not yet in a table (`file: code`), to be moved into the registry. */
const OUTSTANDING = [
  'agent-node/policies/llm/llm-policy.ts: policy/failed',
  'cli/run-dir-lock.ts: run/busy',
  'evaluator/compare/naturalness.ts: judge/bad_json',
  'evaluator/compare/naturalness.ts: judge/invalid_scores',
  'evaluator/compare/naturalness.ts: judge/provider_error',
  'evaluator/judge/judge.ts: judge/missing_scenario',
  'evaluator/judge/judge.ts: judge/provider_error',
  'evaluator/judge/parse.ts: judge/bad_json',
  'evaluator/judge/parse.ts: judge/invalid_scores',
  'evaluator/run-dir.ts: run/bad_json',
  'evaluator/run-dir.ts: run/bad_record',
  'evaluator/run-dir.ts: run/bad_run_json',
  'evaluator/run-dir.ts: run/missing_file',
  'run-dir/jsonl-file.ts: run/bad_json',
  'run-dir/jsonl-file.ts: run/bad_record',
  'run-dir/lock.ts: run/busy',
  'run-dir/run-json.ts: run/bad_json',
  'run-dir/run-json.ts: run/bad_run_json',
  'run-dir/scenarios-file.ts: run/bad_json',
  'run-dir/scenarios-file.ts: run/bad_record',
];

const CODE = new RegExp(`(['"\`])((?:${AREAS.join('|')})/[a-z_]+)\\1`, 'g');

/** Every code-shaped literal of the source (tests excluded) outside the tables, as `file: code`. */
function inlineCodes(): string[] {
  const found = new Set<string>();
  for (const file of sourceFiles(REPO)) {
    if (isTestFile(file) || TABLES.includes(file) || file.startsWith('testkit/') || file.startsWith('bench/')) continue;
    for (const m of stripComments(readFileSync(join(REPO, file), 'utf8')).matchAll(CODE)) found.add(`${file}: ${m[2]}`);
  }
  return [...found].sort();
}

describe('code-shaped literals across the whole source', () => {
  it('appear only in the code tables, apart from the listed outstanding ones', () => {
    const found = inlineCodes();
    expect(found.length).toBeGreaterThan(0);
    expect(found).toEqual([...OUTSTANDING].sort());
  });

  it('the scan sees a literal in any quoting, and none in a comment', () => {
    const text = stripComments("const a = 'judge/x'; const b = \"run/y\"; const c = `llm/z`; // 'seat/w'\n");
    expect([...text.matchAll(CODE)].map((m) => m[2])).toEqual(['judge/x', 'run/y', 'llm/z']);
  });
});
