import { readFileSync } from 'node:fs';
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { compiledSchema, EpisodeRecord, OrchestratorFrame } from '../protocol/index.js';
import { builtinScenarioSet } from '../scenarios/builtin.js';
import { Scenario } from '../scenarios/model.js';
import { expectSame, mutate, rng } from '../test/helpers/schema-mutations.js';

/**
 * What a run directory holds is read through zod's compiled fast path once a process has checked enough
 * values with a schema (protocol/decode.ts compiledForMany): episodes.jsonl (EpisodeRecord), ledgers
 * (OrchestratorFrame, the whole union), scenario files and scenarios.jsonl (Scenario). Run directories are
 * untrusted, so the compiled path must accept and refuse exactly what the schema does, with the same output
 * and the same issues (the messages readers print name the field): each check runs both on valid
 * values (a paper grid's records and ledger lines, the built-in scenarios) and on mutations of them.
 * test/fixtures/run-lines.json keeps those records' and lines' shapes; every name, profile, secret and
 * goal in it is invented (the run it came from played SOTOPIA's profiles, which are not copied here).
 */
const lines = JSON.parse(readFileSync(new URL('../test/fixtures/run-lines.json', import.meta.url), 'utf8')) as { records: Record<string, unknown>[]; frames: Record<string, unknown>[] };
const scenarios = builtinScenarioSet(1).map((s) => JSON.parse(JSON.stringify(s)) as Record<string, unknown>);

const CASES = [
  { name: 'EpisodeRecord', schema: EpisodeRecord as z.ZodType, values: lines.records, addable: ['extra', 'evaluation', 'selection', 'scriptWriter', 'usage', 'error', 'game', 'to', 'pid'] },
  { name: 'OrchestratorFrame (ledger lines)', schema: OrchestratorFrame as z.ZodType, values: lines.frames, addable: ['extra', 'to', 'game', 'type', 'v', 'id', 'state', 'peer', 'reason'] },
  { name: 'Scenario', schema: Scenario as z.ZodType, values: scenarios.slice(0, 6), addable: ['extra', 'subsets', 'codename', 'secret', 'goal', 'task', 'game', 'seats'] },
];

describe('records, ledger lines and scenarios through the compiled fast path', () => {
  it.each(CASES)('$name is really compiled (a schema zod cannot compile would silently lose the speed)', ({ schema }) => {
    expect(() => z.compile(schema, { strict: true })).not.toThrow();
    expect(compiledSchema(schema)).not.toBe(schema);
  });

  it.each(CASES)('$name: accepts and refuses what the schema does, with the same output and issues', ({ schema, values, addable }) => {
    const next = rng(6);
    const fast = compiledSchema(schema);
    let accepted = 0;
    let refused = 0;
    for (const value of values) {
      expectSame(fast.safeParse(value), schema.safeParse(value), `valid ${JSON.stringify(value).slice(0, 120)}`);
      for (let i = 0; i < 150; i++) {
        const mutated = mutate(value, next, addable);
        const ref = schema.safeParse(mutated);
        expectSame(fast.safeParse(mutated), ref, `case ${i}: ${JSON.stringify(mutated).slice(0, 400)}`);
        if (ref.success) accepted++;
        else refused++;
      }
    }
    // Both verdicts were exercised many times.
    expect(accepted).toBeGreaterThan(20);
    expect(refused).toBeGreaterThan(150);
  });
});
