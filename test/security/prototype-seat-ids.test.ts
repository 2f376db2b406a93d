import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openFixture } from '../fixtures/scenarios.js';
import { tempDir } from '../helpers/processes.js';
import { cleanEnv, parleyCli } from '../llm-run-helpers.js';

/**
 * Issue 35, contract 4: seat ids that are names every JavaScript object has (`constructor`, `__proto__`,
 * `toString`) are refused where the scenario is read, with the file, the line and the field, exit 2 and
 * nothing written — in every mode, with a mindreading map, by `run` and by `serve` — instead of killing
 * the run (`graph[reader]?.includes is not a function`) or leaving a seat never hosted.
 */
describe('red team: prototype names as seat ids', () => {
  const tmp = tempDir('proto-seats');
  afterAll(() => tmp.remove());
  const scenario = (id: string, a: string, b: string) => {
    const s = JSON.parse(JSON.stringify(openFixture(2, { id })));
    s.seats[0].seat = a;
    s.seats[1].seat = b;
    return JSON.stringify(s);
  };
  const file = join(tmp.path, 'proto.jsonl');
  writeFileSync(file, `${scenario('fx-ok', 'agent1', 'agent2')}\n${scenario('fx-ctor', 'constructor', '__proto__')}\n${scenario('fx-tostring', 'agent1', 'toString')}\n`);

  const cases: Array<{ name: string; args: string[]; line: RegExp }> = [
    ...[['agents'], ['script'], ['mindreaders'], ['mindreaders', '--mindread', 'agent1<-agent2']].map((m) => ({
      name: `run --modes ${m.join(' ')}`,
      args: ['run', '--scenarios', file, '--modes', ...m],
      line: /proto\.jsonl, line 2, field 'seats\.0\.seat'.*'constructor' is reserved/,
    })),
    { name: 'serve --modes mindreaders', args: ['serve', '--port', '0', '--scenarios', file, '--modes', 'mindreaders'], line: /line 2, field 'seats\.0\.seat'/ },
    { name: "run --mindread 'constructor<-agent1'", args: ['run', '--mindread', 'constructor<-agent1'], line: /--mindread: 'constructor' is reserved/ },
    { name: "run --mindread '__proto__<-agent1;…'", args: ['run', '--mindread', '__proto__<-agent1;agent2<-agent1'], line: /--mindread: '__proto__' is reserved/ },
  ];

  it.each(cases)('$name: exit 2, its line, nothing written, no crash', async ({ args, line }) => {
    const out = join(tmp.path, `out-${cases.findIndex((c) => c.args === args)}`);
    const r = await parleyCli([...args, '--out', out], cleanEnv());
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(line);
    expect(r.stderr).not.toMatch(/is not a function|TypeError|named twice/);
    expect(existsSync(out)).toBe(false);
  });

  it('scenarios validate names the file, line and field of a toString seat', async () => {
    const only = join(tmp.path, 'tostring.jsonl');
    writeFileSync(only, `${scenario('fx-ok', 'agent1', 'agent2')}\n${scenario('fx-tostring', 'agent1', 'toString')}\n`);
    const r = await parleyCli(['scenarios', 'validate', only], cleanEnv());
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/tostring\.jsonl, line 2, field 'seats\.1\.seat'.*'toString' is reserved/);
  });
});
