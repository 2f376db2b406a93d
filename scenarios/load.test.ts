import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtinScenarios } from './builtin.js';
import { ScenarioError } from './errors.js';
import { filterSubset, loadScenarioFile, loadScenarios, writeScenarioFile } from './load.js';

let dir: string;
beforeEach(async () => { dir = await mkdtemp(path.join(os.tmpdir(), 'parley-load-')); });
afterEach(async () => { await rm(dir, { recursive: true, force: true }); });

describe('scenario files', () => {
  it('round-trips the built-in set through JSONL', async () => {
    const file = path.join(dir, 'b.jsonl');
    const scenarios = builtinScenarios();
    await writeScenarioFile(file, scenarios);
    expect((await readFile(file, 'utf8')).trim().split('\n')).toHaveLength(20);
    expect(await loadScenarioFile(file)).toEqual(scenarios);
    expect(await readdir(dir)).toEqual(['b.jsonl']);
  });

  it('names file, line and field for a bad line', async () => {
    const file = path.join(dir, 'bad.jsonl');
    const [a, b] = builtinScenarios();
    const broken = { ...b!, seats: [{ ...b!.seats[0]!, goal: undefined }, b!.seats[1]] };
    await writeFile(file, `${JSON.stringify(a)}\n\n${JSON.stringify(broken)}\n`);
    const err = await loadScenarioFile(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ScenarioError);
    expect((err as ScenarioError).code).toBe('scenarios/missing_field');
    expect((err as ScenarioError).line).toBe(3);
    expect((err as ScenarioError).message).toContain(file);
    expect((err as ScenarioError).message).toContain('line 3');
    expect((err as ScenarioError).message).toContain('seats.0.goal');

    await writeFile(file, `${JSON.stringify(a)}\n{"id": oops}\n`);
    const bad = (await loadScenarioFile(file).catch((e: unknown) => e)) as ScenarioError;
    expect(bad.code).toBe('scenarios/bad_json');
    expect(bad.message).toContain('line 2');

    await writeFile(file, `${JSON.stringify(a)}\n${JSON.stringify(a)}\n`);
    expect(((await loadScenarioFile(file).catch((e: unknown) => e)) as ScenarioError).code).toBe('scenarios/duplicate_id');
  });

  it('writes nothing when a record is invalid', async () => {
    const file = path.join(dir, 'out.jsonl');
    const [a] = builtinScenarios();
    const err = await writeScenarioFile(file, [a!, { ...a!, id: 'x', kind: 'chess' } as never]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ScenarioError);
    expect((err as ScenarioError).field).toBe('kind');
    expect(await readdir(dir)).toEqual([]);
  });

  it('filters subsets and resolves builtin specs', async () => {
    const all = await loadScenarios('builtin');
    expect(filterSubset(all, 'mutual_friends')).toHaveLength(10);
    expect(filterSubset(all, 'craigslist_bargains')).toHaveLength(10);
    expect(filterSubset(all, 'hard')).toHaveLength(0);
    expect(filterSubset(all, undefined)).toHaveLength(20);
    expect(await loadScenarios('builtin:3')).toEqual(builtinScenarios(3));
  });
});
