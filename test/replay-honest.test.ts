import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parleyInProcess } from './helpers/in-process-parley.js';
import { startFakeLlmServer, type FakeLlmServer } from '../testkit/fake-llm-server.js';
import { tempDir } from './helpers/processes.js';
import { cleanEnv, parleyRunInProcess, readEpisodes, readRunJson, turnsById } from './llm-run-helpers.js';

/**
 * Issue 16, contract 2: after an LLM run R against the fake server, a replay with the server stopped
 * reproduces R's turns, records R's providers and models, and reports nothing spent — both with
 * `--replay R` and no policies, and with `replay:R` as each seat's policy. Contract 3: a different
 * experiment into R's directory is refused and leaves it unchanged.
 */
describe('honest replay and one experiment per run directory (issue 16)', () => {
  let server: FakeLlmServer;
  const r = tempDir('replay-r');
  const r2 = tempDir('replay-r2');
  const r3 = tempDir('replay-r3');
  const r4 = tempDir('replay-r4');
  const SETTINGS = ['--scenarios', 'builtin', '--concurrency', '1', '--max-turns', '6', '--modes', 'agents,script', '--limit', '4'];
  const POLICIES = ['--agent1', 'openai:gpt-3.5-turbo', '--agent2', 'mistral:open-mixtral-8x7b', '--script-writer', 'openai:gpt-3.5-turbo'];

  beforeAll(async () => {
    server = await startFakeLlmServer();
    const run = await parleyRunInProcess([...SETTINGS, ...POLICIES, '--out', r.path], cleanEnv(server.env()));
    expect(run.code, run.stderr).toBe(0);
    await server.close();
  });
  afterAll(async () => {
    await server.close();
    for (const d of [r, r2, r3, r4]) d.remove();
  });

  const seatsOf = (dir: string) => Object.fromEntries(readEpisodes(dir).map((e) => [e.episodeId, JSON.stringify([e.seats.map((s) => [s.provider, s.model]), e.scriptWriter?.model ?? null])]));

  it('--replay R with no policies: same turns, original providers and models, 0 spent', async () => {
    const before = server.requests.length;
    const run = await parleyRunInProcess(['--replay', r.path, '--out', r2.path], cleanEnv());
    expect(run.code, run.stderr).toBe(0);
    expect(readEpisodes(r2.path)).toHaveLength(4);
    expect(turnsById(readEpisodes(r2.path))).toEqual(turnsById(readEpisodes(r.path)));
    expect(seatsOf(r2.path)).toEqual(seatsOf(r.path));
    expect(readEpisodes(r2.path).some((e) => e.seats.some((s) => s.provider === 'mistral'))).toBe(true);
    const stats = readRunJson(r2.path).stats as unknown as { usage: object; cost: { usd: number }; replayed: { usage: object; cost: { usd: number } } };
    expect(stats.usage).toEqual({});
    expect(stats.cost.usd).toBe(0);
    expect(stats.replayed.cost.usd).toBeGreaterThan(0);
    expect(run.stdout).toMatch(/replayed from cassettes: \d+ tokens .* not spent again; spent: 0 tokens, \$0\.0000/);
    expect(server.requests.length).toBe(before);
  });

  it('replay:R as every seat policy does the same', async () => {
    const run = await parleyRunInProcess([...SETTINGS, '--agent1', `replay:${r.path}`, '--agent2', `replay:${r.path}`, '--script-writer', `replay:${r.path}`, '--out', r3.path], cleanEnv());
    expect(run.code, run.stderr).toBe(0);
    expect(turnsById(readEpisodes(r3.path))).toEqual(turnsById(readEpisodes(r.path)));
    expect(seatsOf(r3.path)).toEqual(seatsOf(r.path));
    expect((readRunJson(r3.path).stats.cost as { usd: number }).usd).toBe(0);
  });

  it('a replay that cannot answer fails before the first episode, naming what is missing', async () => {
    const run = await parleyRunInProcess([...SETTINGS.slice(0, -4), '--modes', 'mindreaders', '--agent1', `replay:${r.path}`, '--out', r4.path], cleanEnv());
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/replay cannot answer \d+ of \d+ episode\(s\): no cassettes for builtin-mf-01\.mindreaders/);
    expect(readEpisodes(r4.path)).toEqual([]);
  });

  it('another experiment into R is refused with the differences named, and R is unchanged', async () => {
    const snapshot = (dir: string) => Object.fromEntries(readdirSync(dir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile()).map((f) => [join(f.parentPath, f.name), readFileSync(join(f.parentPath, f.name), 'utf8')]));
    const before = snapshot(r.path);
    const file = join(r4.path, 'S.jsonl');
    const mk = await parleyInProcess(['scenarios', 'make', 'craigslist', '--n', '2', '--out', file], { env: cleanEnv() });
    expect(mk.code).toBe(0);
    const run = await parleyRunInProcess(['--scenarios', file, '--out', r.path], cleanEnv());
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`scenarios: builtin → ${file}`);
    expect(run.stderr).toContain('agents: ');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(snapshot(r.path)).toEqual(before);
  });
});
