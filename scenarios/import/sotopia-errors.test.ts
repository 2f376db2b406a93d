import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScenarioError } from '../errors.js';
import { importSotopia } from './sotopia.js';

/**
 * Malformed SOTOPIA inputs, built as a tiny synthetic profile directory (1 scenario, 2 characters)
 * so each case breaks exactly one thing.
 */
const env = (over: Record<string, unknown> = {}) => ({
  env_id: 'E1', codename: 'tiny', source: 'hand-craft', scenario: 'Two friends meet.',
  agent_goals: ['Goal one', 'Goal two'], relationship: '3', age_constraint: 'nan', occupation_constraint: 'nan', agent_constraint: 'none', ...over,
});
const agent = (id: string, over: Record<string, unknown> = {}) => ({
  agent_id: id, first_name: `F${id}`, last_name: 'L', age: 30, occupation: 'Baker', gender: 'Woman', gender_pronoun: 'She/her',
  public_info: 'x', big_five: 'x', moral_values: ['Care'], schwartz_personal_values: ['Power'], personality_and_values: 'x',
  decision_making_style: 'x', secret: `secret of ${id}`, mbti: 'INTJ', ...over,
});
const rel = (over: Record<string, unknown> = {}) => ({ relationship_id: 'R1', agent1_id: 'A1', agent2_id: 'A2', relationship: '3', background_story: 'They met at school.', ...over });
const combo = (over: Record<string, unknown> = {}) => ({ combo_id: 'C1', env_id: 'E1', agent_ids: ['A1', 'A2'], ...over });

let dir: string;
async function writeDir(files: Partial<Record<'env' | 'agents' | 'rels' | 'combos' | 'ids', string>> = {}) {
  const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
  await writeFile(path.join(dir, 'environment_profiles.jsonl'), files.env ?? jsonl([env()]));
  await writeFile(path.join(dir, 'agent_profiles.jsonl'), files.agents ?? jsonl([agent('A1'), agent('A2')]));
  await writeFile(path.join(dir, 'relationship_profiles.jsonl'), files.rels ?? jsonl([rel()]));
  await writeFile(path.join(dir, 'env_agent_combo_storages.jsonl'), files.combos ?? jsonl([combo()]));
  await writeFile(path.join(dir, 'env_ids.json'), files.ids ?? JSON.stringify({ sotopia_hard_env_id: ['E1'] }));
}
async function failure(): Promise<ScenarioError> {
  const err = await importSotopia(dir).then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(ScenarioError);
  return err as ScenarioError;
}

beforeEach(async () => { dir = await mkdtemp(path.join(os.tmpdir(), 'parley-sotopia-')); });
afterEach(async () => { await rm(dir, { recursive: true, force: true }); });

describe('SOTOPIA import errors', () => {
  it('imports the tiny directory when nothing is wrong', async () => {
    await writeDir();
    const r = await importSotopia(dir);
    expect(r.counts).toEqual({ environments: 1, characters: 2, relationships: 1, pairs: 1 });
    expect(r.scenarios[0]).toMatchObject({ id: 'C1', envId: 'E1', subsets: ['hand-craft', 'hard'], relationship: { level: 3, story: 'They met at school.' } });
  });

  it('bad JSON on line k names the file and line', async () => {
    await writeDir({ agents: `${JSON.stringify(agent('A1'))}\n\n{"agent_id": "A2", oops\n` });
    const e = await failure();
    expect(e.code).toBe('scenarios/bad_json');
    expect(e.file).toBe(path.join(dir, 'agent_profiles.jsonl'));
    expect(e.line).toBe(3);
    expect(e.message).toMatch(/agent_profiles\.jsonl, line 3: bad JSON/);
  });

  it('a missing field names file, line and field', async () => {
    const a2 = agent('A2') as Record<string, unknown>;
    delete a2.secret;
    await writeDir({ agents: `${JSON.stringify(agent('A1'))}\n${JSON.stringify(a2)}\n` });
    const e = await failure();
    expect(e.code).toBe('scenarios/missing_field');
    expect([e.line, e.field]).toEqual([2, 'secret']);
    expect(e.message).toContain("agent_profiles.jsonl, line 2, field 'secret'");

    await writeDir({ env: `${JSON.stringify({ ...env(), agent_goals: undefined })}\n` });
    const g = await failure();
    expect([g.file.endsWith('environment_profiles.jsonl'), g.line, g.field]).toEqual([true, 1, 'agent_goals']);
  });

  it('an unknown relationship code names file, line and field', async () => {
    await writeDir({ rels: `${JSON.stringify(rel())}\n${JSON.stringify(rel({ relationship_id: 'R2', relationship: '7' }))}\n` });
    const e = await failure();
    expect(e.code).toBe('scenarios/unknown_relationship');
    expect(e.message).toContain("relationship_profiles.jsonl, line 2, field 'relationship'");

    await writeDir({ env: `${JSON.stringify(env({ relationship: 'cousins' }))}\n` });
    const f = await failure();
    expect([f.code, f.line, f.field]).toEqual(['scenarios/unknown_relationship', 1, 'relationship']);
    expect(f.file).toContain('environment_profiles.jsonl');
  });

  it('unknown references and broken task scenarios are located too', async () => {
    await writeDir({ combos: `${JSON.stringify(combo({ agent_ids: ['A1', 'A9'] }))}\n` });
    const e = await failure();
    expect([e.code, e.line, e.field]).toEqual(['scenarios/unknown_reference', 1, 'agent_ids.1']);

    await writeDir({ env: `${JSON.stringify(env({ source: 'mutual_friends', relationship: '0', scenario: 'Party. <p viewer="environment">They have 1 common friends: Zed.</p>' }))}\n` });
    const m = await failure();
    expect([m.code, m.line, m.field]).toEqual(['scenarios/invalid_field', 1, 'agent_goals.0']);

    await writeDir({ env: `${JSON.stringify(env({ source: 'craigslist_bargains', scenario: 'Someone wants a chair.' }))}\n` });
    const c = await failure();
    expect([c.code, c.field]).toEqual(['scenarios/invalid_field', 'scenario']);
  });

  it('a missing file is an I/O error naming it', async () => {
    await writeDir();
    await rm(path.join(dir, 'env_ids.json'));
    const e = await failure();
    expect(e.code).toBe('scenarios/io');
    expect(e.message).toContain('env_ids.json');
  });
});
