import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { run } from '../commands/scenarios.js';
import type { ChatResponse, LlmClient } from '../../llm/types.js';
import { loadScenarioFile } from '../../scenarios/load.js';
import { runSubcommand } from '../commands/scenarios.js';
import { generateCommand } from './generate.js';
import { cocoaData, describeWithData, itWithData, sotopiaMiniDir, sotopiaData } from '../../test/helpers/reference-data.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const sotopia = sotopiaData();
const cocoa = cocoaData();
const SOTOPIA = sotopia.dir;
const COCOA = cocoa.dir;
const FIXTURES = path.resolve(HERE, '../../scenarios/fixtures');

/** Runs `parley scenarios …` in-process, capturing what it prints. */
async function cli(argv: string[], runner: (a: string[]) => Promise<number> = run) {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  const error = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  try {
    const code = await runner(argv);
    return { code, out: out.join('\n'), err: err.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

let dir: string;
let S: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'parley-scn-cli-'));
  S = path.join(dir, 'S.jsonl');
});
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

describeWithData(sotopia, 'parley scenarios import sotopia / list', () => {
  it('imports and reports 90 scenarios, 40 characters, 120 relationships, 450 character pairs', async () => {
    const r = await cli(['import', 'sotopia', SOTOPIA, '--out', S]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('90 scenarios, 40 characters, 120 relationships, 450 character pairs');
    expect(r.out).toContain('hard 14, mutual_friends 10, craigslist_bargains 10');
    expect((await loadScenarioFile(S)).length).toBe(450);
  });

  it.each([['hard', 14], ['mutual_friends', 10], ['craigslist_bargains', 10]])('list --subset %s lists %i scenarios', async (subset, n) => {
    const r = await cli(['list', S, '--subset', subset]);
    expect(r.code).toBe(0);
    const lines = r.out.split('\n');
    expect(lines).toHaveLength(n + 1);
    expect(lines.at(-1)).toBe(`${n} scenarios in subset '${subset}' (${n * 5} character-pair instances)`);
  });

  it('lists, shows and validates builtin and files', async () => {
    const list = await cli(['list', 'builtin']);
    expect(list.out.split('\n').at(-1)).toBe('20 scenarios (20 character-pair instances)');
    const show = await cli(['show', 'builtin', 'builtin-mf-01']);
    expect(JSON.parse(show.out).id).toBe('builtin-mf-01');
    const byEnv = await cli(['show', S, '01H7VFHPQ1712DHGTMPQFTXH02']);
    expect(byEnv.out.match(/"pairId"/g)).toHaveLength(5);
    expect((await cli(['show', 'builtin', 'nope'])).code).toBe(1);
    const v = await cli(['validate', S]);
    expect([v.code, v.out]).toEqual([0, '450 records valid (open 350, craigslist 50, mutual_friends 50; 90 scenarios)']);
  });
});

describe('malformed inputs: non-zero exit, file/line/field named, no output', () => {
  async function miniDir(name: string, broken: Partial<Record<string, string>>) {
    const d = path.join(dir, name);
    const { mkdir } = await import('node:fs/promises');
    await mkdir(d);
    const agent = (id: string) => ({ agent_id: id, first_name: id, last_name: 'L', age: 30, secret: `s-${id}` });
    const files: Record<string, string> = {
      'environment_profiles.jsonl': JSON.stringify({ env_id: 'E1', codename: 'c', source: 'x', scenario: 'Hi.', agent_goals: ['g1', 'g2'], relationship: '2' }) + '\n',
      'agent_profiles.jsonl': `${JSON.stringify(agent('A1'))}\n${JSON.stringify(agent('A2'))}\n`,
      'relationship_profiles.jsonl': JSON.stringify({ agent1_id: 'A1', agent2_id: 'A2', relationship: '2', background_story: 'b' }) + '\n',
      'env_agent_combo_storages.jsonl': JSON.stringify({ combo_id: 'C1', env_id: 'E1', agent_ids: ['A1', 'A2'] }) + '\n',
      'env_ids.json': '{"sotopia_hard_env_id": []}',
      ...broken,
    };
    for (const [f, text] of Object.entries(files)) await writeFile(path.join(d, f), text!);
    return d;
  }

  it('accepts the unbroken mini directory', async () => {
    const d = await miniDir('ok', {});
    const out = path.join(dir, 'ok.jsonl');
    expect((await cli(['import', 'sotopia', d, '--out', out])).code).toBe(0);
    expect(existsSync(out)).toBe(true);
  });

  it.each([
    ['bad JSON on line 2', 'agent_profiles.jsonl', `{"agent_id": "A1", "first_name": "A", "last_name": "L", "secret": "s"}\n{"agent_id": "A2",,}\n`, /agent_profiles\.jsonl, line 2: bad JSON/],
    ['a missing field', 'agent_profiles.jsonl', `{"agent_id": "A1", "first_name": "A", "last_name": "L", "secret": "s"}\n{"agent_id": "A2", "first_name": "B", "last_name": "L"}\n`, /agent_profiles\.jsonl, line 2, field 'secret': missing field/],
    ['an unknown relationship code', 'relationship_profiles.jsonl', JSON.stringify({ agent1_id: 'A1', agent2_id: 'A2', relationship: 'frenemy' }) + '\n', /relationship_profiles\.jsonl, line 1, field 'relationship': unknown relationship code "frenemy"/],
  ])('%s', async (name, file, text, message) => {
    const d = await miniDir(name.replace(/\W+/g, '-'), { [file]: text });
    const out = path.join(dir, `${path.basename(d)}.jsonl`);
    const r = await cli(['import', 'sotopia', d, '--out', out]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(message);
    expect(r.err).toContain(path.join(d, file));
    expect(existsSync(out)).toBe(false);
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('validate names the line and field of a bad record', async () => {
    const bad = path.join(dir, 'bad.jsonl');
    const mini = path.join(dir, 'mini.jsonl');
    expect((await cli(['import', 'sotopia', sotopiaMiniDir(), '--out', mini])).code).toBe(0);
    const [first] = await loadScenarioFile(mini);
    await writeFile(bad, `${JSON.stringify(first)}\n${JSON.stringify({ ...first, id: 'x', relationship: { level: 9 } })}\n`);
    const r = await cli(['validate', bad]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${bad}, line 2, field 'relationship.level'`);
  });

  it('usage mistakes exit 2 with help', async () => {
    expect((await cli(['import', 'sotopia', sotopiaMiniDir()])).code).toBe(2);
    expect((await cli(['import', 'nope', 'x', '--out', 'y'])).code).toBe(2);
    expect((await cli(['frobnicate'])).code).toBe(2);
    const help = await cli(['import', '--help']);
    expect([help.code, help.out.startsWith('usage: parley scenarios import')]).toEqual([0, true]);
  });
});

describe('cocoa imports and seeded generators', () => {
  it('imports cocoa Craigslist and MutualFriends files', async () => {
    const c = await cli(['import', 'cocoa-craigslist', path.join(FIXTURES, 'cocoa-craigslist.json'), '--out', path.join(dir, 'C.jsonl')]);
    expect([c.code, c.out]).toEqual([0, `read 3 CraigslistBargain scenarios\nwrote 3 scenario records to ${path.join(dir, 'C.jsonl')}`]);
    const m = await cli(['import', 'cocoa-mutualfriends', path.join(FIXTURES, 'cocoa-mutualfriends.json'), '--out', path.join(dir, 'M.jsonl')]);
    expect(m.code).toBe(0);
    expect((await loadScenarioFile(path.join(dir, 'M.jsonl'))).map((s) => s.kind)).toEqual(['mutual_friends', 'mutual_friends', 'mutual_friends']);
  });

  itWithData(cocoa, 'makes MutualFriends and Craigslist sets from cocoa pools and listings, the same for the same seed', async () => {
    const a = path.join(dir, 'mf-a.jsonl');
    const b = path.join(dir, 'mf-b.jsonl');
    const pools = path.join(COCOA, 'mutualfriends_friends_schema.json');
    expect((await cli(['make', 'mutual-friends', '--n', '4', '--seed', '7', '--pools', pools, '--out', a])).code).toBe(0);
    expect((await cli(['make', 'mutual-friends', '--n', '4', '--seed', '7', '--pools', pools, '--out', b])).code).toBe(0);
    expect(await loadScenarioFile(a)).toEqual(await loadScenarioFile(b));
    const cl = path.join(dir, 'cl.jsonl');
    const r = await cli(['make', 'craigslist', '--n', '6', '--listings', path.join(COCOA, 'craigslist_listings_sample.json'), '--out', cl]);
    expect(r.code).toBe(0);
    expect((await loadScenarioFile(cl)).length).toBe(6);
    expect((await cli(['validate', cl])).code).toBe(0);
  });
});

describe('parley scenarios generate (injected client)', () => {
  it('writes only valid generations and records the model; fails without writing when short', async () => {
    let k = 0;
    const client: LlmClient = {
      provider: 'openai',
      model: 'gpt-4',
      async chat(): Promise<ChatResponse> {
        k++;
        const content = k === 2 ? 'sorry, I cannot' : JSON.stringify({
          codename: `gen_${k}`, scenario: `A generated situation number ${k} about sharing a garden plot.`,
          agent_goals: [`Get the sunny half ${k}`, `Get the shady half ${k}`], relationship: 'stranger', judge_only: '',
        });
        return { content, usage: { prompt: 1, completion: 1, cached: 0 }, model: 'gpt-4', latencyMs: 1, retries: 0 };
      },
    };
    const sub = generateCommand(() => client);
    const out = path.join(dir, 'G.jsonl');
    const r = await cli(['--n', '3', '--model', 'openai:gpt-4', '--out', out], (a) => runSubcommand('generate', sub, a));
    expect(r.code).toBe(0);
    expect(r.err).toContain('attempt 2: rejected: no JSON object');
    const g = await loadScenarioFile(out);
    expect(g.map((s) => s.source)).toEqual(Array(3).fill('generated:openai:gpt-4'));

    const none = path.join(dir, 'none.jsonl');
    const broken: LlmClient = { ...client, chat: async () => ({ ...(await client.chat({ messages: [] })), content: '{}' }) };
    const f = await cli(['--n', '2', '--model', 'openai:gpt-4', '--out', none, '--attempts', '2'], (a) => runSubcommand('generate', generateCommand(() => broken), a));
    expect(f.code).toBe(1);
    expect(f.err).toContain('only 0 of 2 valid scenarios; nothing written');
    expect(existsSync(none)).toBe(false);
  });

  it('reports a missing key without calling anything', async () => {
    const prev = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      const r = await cli(['generate', '--n', '1', '--model', 'openai:gpt-4', '--out', path.join(dir, 'k.jsonl')]);
      expect(r.code).toBe(1);
      expect(r.err).toContain('OPENAI_API_KEY');
    } finally {
      if (prev !== undefined) process.env.OPENAI_API_KEY = prev;
    }
  });
});
