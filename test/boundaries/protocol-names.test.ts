import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROTOCOL_NAMES } from '../../simulation/index.js';
import { REPO } from '../helpers/processes.js';
import { sourceFiles, stripComments } from './import-graph.js';

/**
 * Issue 34, Contract 1: no code tests a simulation protocol's name outside simulation/. Everything else reads
 * the definition (simulation/paper.ts, simulation/parley.ts): a seat its capabilities, the engine its
 * rules, the evaluator its scoring defaults. What counts as a name test:
 * - a comparison with a protocol's name as a literal, in any quoting, on either side, or a `case` on one;
 * - a comparison of a protocol's `.name` (`protocol.name === p`, `run.protocol?.name !== q`);
 * - an `isPaperRun`-style helper (`isPaper…(`, `isParley…(`).
 * The judge views and naturalness forms share the names `paper` and `parley`: code reads their facts
 * (simulation/judge-views.ts) rather than comparing them, so this scan needs no exception for them.
 * Scanned: every `.ts` file of the repository, tests included, except simulation/ itself and this file.
 */
const OWN_FILE = 'test/boundaries/protocol-names.test.ts';

const names = PROTOCOL_NAMES.join('|');
const CAMEL = PROTOCOL_NAMES.map((n) => n[0]!.toUpperCase() + n.slice(1)).join('|');
const OP = '[!=]==?';

const RULES: readonly { what: string; pattern: RegExp }[] = [
  { what: 'compares with a protocol name', pattern: new RegExp(`${OP}\\s*(['"\`])(?:${names})\\1|(['"\`])(?:${names})\\2\\s*${OP}`, 'g') },
  { what: 'a case on a protocol name', pattern: new RegExp(`\\bcase\\s+(['"\`])(?:${names})\\1\\s*:`, 'g') },
  { what: "compares a protocol's name", pattern: new RegExp(`\\bprotocol\\w*\\??\\.name\\s*${OP}|${OP}\\s*[\\w.?]*\\bprotocol\\w*\\??\\.name\\b`, 'gi') },
  { what: 'an is-this-protocol helper', pattern: new RegExp(`\\bis(?:${CAMEL})(?:Run|Protocol)?\\s*\\(`, 'g') },
];

/** Every protocol-name test in one text, as `line: what: the matched text`. */
function nameTests(text: string): string[] {
  const code = stripComments(text);
  const found: string[] = [];
  for (const { what, pattern } of RULES) {
    for (const m of code.matchAll(pattern)) {
      const line = code.slice(0, m.index).split('\n').length;
      found.push(`${line}: ${what}: ${m[0]}`);
    }
  }
  return found;
}

describe('no protocol-name test outside simulation/ (issue 34, Contract 1)', () => {
  it('the tree has none', () => {
    const files = sourceFiles(REPO).filter((f) => !f.startsWith('simulation/') && f !== OWN_FILE);
    // Not vacuous: the scan covers the processes, the CLI, the pages and the tests.
    for (const dir of ['orchestrator/', 'agent-node/', 'evaluator/', 'cli/', 'web/', 'training/', 'test/']) expect(files.some((f) => f.startsWith(dir)), dir).toBe(true);
    const found = files.flatMap((f) => nameTests(readFileSync(join(REPO, f), 'utf8')).map((hit) => `${f}:${hit}`));
    expect(found).toEqual([]);
  });

  it('the scan finds every form of name test planted in a file, and none in a comment or a plain literal', () => {
    // Built from the names, so that a plain grep of the tree for a name test finds none here either.
    const [p, q] = [PROTOCOL_NAMES[0], PROTOCOL_NAMES[1]];
    const planted = [
      `if (protocol.name === '${p}') a();`,
      `const b = view.welcome.protocol?.name !== "${q}";`,
      `const c = '${p}' === style ? 1 : 2;`,
      `switch (x) { case \`${q}\`: break; }`,
      'if (run.protocol?.name === other) d();',
      'if (x == run.run?.protocol?.name) e();',
      'const f = isPaperRun(run);',
      `// if (protocol.name === '${p}') never`,
      `const g = { protocol: '${p}', view: '${q}' }; const h = v ?? '${q}';`,
    ].join('\n');
    expect([...new Set(nameTests(planted).map((hit) => Number(hit.split(':')[0])))].sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
});
