import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Scenario } from '../scenarios/model.js';
import { fakeLlmSuite } from './helpers/fake-llm-suite.js';
import { parleyInProcess } from './helpers/in-process-parley.js';
import { botRunFixture, copyOf } from './helpers/run-fixture.js';
import { importSotopiaMini } from './helpers/paper-mini-suite.js';
import { cleanEnv, readEpisodes } from './llm-run-helpers.js';

/**
 * Issue 37, contract 3: every setting a user gives takes effect (checked in the fake server's request log)
 * or is refused with exit status 2 and one line naming it, with nothing written.
 */
const suite = fakeLlmSuite('silent-settings');
const { tmp } = suite;
let bots: string;

beforeAll(async () => {
  // One episode: the eval below checks every judge request and the fork refusal needs one episode to name.
  // Built once with test/security/yaml-alias-bomb.test.ts's (helpers/run-fixture.ts); this file's own copy.
  bots = copyOf(await botRunFixture(['--modes', 'agents', '--limit', '1']), join(tmp.path, 'bots'));
});

async function cli(args: string[]) {
  // In this process (testkit/in-process-cli.ts): what is checked is what reaches the seats and what is printed.
  const p = await parleyInProcess(args, { env: cleanEnv(suite.server.env()) });
  return { code: p.code, stdout: p.stdout, stderr: p.stderr.filter((l) => l.trim()) };
}

const text = (body: { messages?: { content?: unknown }[] }) => (body.messages ?? []).map((m) => String(m.content)).join('\n');

describe('settings are applied', () => {
  it('--show-relationship-story under --protocol paper reaches the agents and the script writer', async () => {
    const file = join(tmp.path, 'S.jsonl');
    await importSotopiaMini(file);
    const out = join(tmp.path, 'story');
    const before = suite.server.requests.length;
    // --selection all: at 4 turns every episode is short, and first-valid (paper's default) would re-draw each
    // one to the draw limit (a fresh agent pool a round) without telling this test anything more.
    // --multiplex: seats of different episodes share two warm agent processes (never two of one episode; one seat
    // a process started 14); what reaches each seat's prompt does not depend on it.
    const r = await cli(['run', '--scenarios', file, '--protocol', 'paper', '--show-relationship-story', '--selection', 'all', '--modes', 'agents,script',
      '--agent1', 'openai:gpt-3.5-turbo', '--script-writer', 'openai:gpt-3.5-turbo', '--max-turns', '4', '--multiplex', '--out', out]);
    expect(r.code, r.stderr.join('\n')).toBe(0);
    const scenarios = readFileSync(join(out, 'scenarios.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Scenario);
    // The stories the relationship shows (friends and up, as under parley): each reaches every generator of its episodes.
    const told = scenarios.filter((s) => s.relationship.story && s.relationship.level >= 3);
    expect(told.length).toBeGreaterThan(0);
    const sent = suite.server.requests.slice(before).map((q) => text(q.body));
    for (const s of told) {
      const withStory = sent.filter((t) => t.includes(s.relationship.story!));
      const names = s.seats.map((x) => x.character.name);
      const ofScenario = sent.filter((t) => names.every((n) => t.includes(n)) && t.includes(s.seats[0]!.goal.slice(0, 40)));
      expect(ofScenario.length).toBeGreaterThan(0);
      expect(ofScenario.filter((t) => !t.includes(s.relationship.story!))).toEqual([]);
      // The script writer's request is the one holding both goals (an agent sees the partner's as Unknown).
      expect(withStory.some((t) => s.seats.every((x) => t.includes(x.goal.slice(0, 40))))).toBe(true);
    }
  });

  it('eval --param temperature=0.5 is sent on every judge request and recorded with the scores', async () => {
    const before = suite.server.requests.length;
    const r = await cli(['eval', bots, '--judge', 'openai:gpt-4', '--param', 'temperature=0.5']);
    expect(r.code, r.stderr.join('\n')).toBe(0);
    const judged = suite.server.requests.slice(before);
    expect(judged.length).toBeGreaterThan(0);
    for (const q of judged) expect(q.body.temperature).toBe(0.5);
    for (const e of readEpisodes(bots)) expect((e.evaluation as { judge: { judge: { temperature: number } } }).judge.judge.temperature).toBe(0.5);
    // Out of range: refused, nothing sent.
    const bad = await cli(['eval', bots, '--judge', 'openai:gpt-4', '--param', 'temperature=9']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toEqual([expect.stringContaining('--param temperature')]);
  });

  it('the start line and the dry run name every seat, and mark a script writer left at the default bot', async () => {
    const dry = await cli(['run', '--scenarios', 'builtin', '--modes', 'script,agents', '--agent1', 'openai:gpt-4o', '--out', join(tmp.path, 'dry'), '--dry-run']);
    expect(dry.code).toBe(0);
    const line = dry.stdout.find((l) => l.includes('seats:'));
    expect(line).toContain('agent1 openai:gpt-4o');
    expect(line).toContain('agent2 and later as agent1 [default]');
    expect(line).toMatch(/script writer bot \[default: the agents are LLMs but the script writer is not/);
    const real = await cli(['run', '--scenarios', 'builtin', '--modes', 'script,agents', '--agent1', 'openai:gpt-4o', '--agent2', 'bot', '--limit', '1', '--multiplex', '--out', join(tmp.path, 'start')]);
    expect(real.code).toBe(0);
    expect(real.stdout[1]).toMatch(/^seats: agent1 openai:gpt-4o \(no sampling params: the protocol's temperature\); agent2 bot; script writer bot \[default: the agents are LLMs/);
  });
});

describe('settings that cannot take effect are refused: exit 2, one line naming them, nothing written', () => {
  const refused = async (args: string[], named: RegExp, out?: string) => {
    const r = await cli(args);
    expect(r.code, [...r.stdout, ...r.stderr].join('\n')).toBe(2);
    expect(r.stderr).toHaveLength(1);
    expect(r.stderr[0]).toMatch(named);
    if (out) expect(existsSync(out)).toBe(false);
  };

  it('--param agent2.temperature=0.2 on a bot seat (fork)', async () => {
    const episode = readEpisodes(bots)[0]!.episodeId;
    const out = join(tmp.path, 'fork');
    await refused(['fork', bots, episode, '--at', '1', '--param', 'agent2.temperature=0.2', '--out', out], /--param 'agent2\.temperature=0\.2': agent2 'temperature' has no effect on a bot seat/, out);
  });

  it('--tpm without --queue', async () => {
    const out = join(tmp.path, 'tpm');
    await refused(['run', '--scenarios', 'builtin', '--agent1', 'openai:gpt-4o', '--tpm', '10000', '--out', out], /--tpm .* is enforced only across the workers of --queue/, out);
  });

  it("the REPLACE-ME model of examples/agents-ft.yaml", async () => {
    await refused(['run', '--experiment', 'examples/agents-ft.yaml', '--out', join(tmp.path, 'ft')], /agent1\.spec: 'openai:ft:.*REPLACE-ME' still holds the example's placeholder model id/, join(tmp.path, 'ft'));
    await refused(['run', '--scenarios', 'builtin', '--agent1', 'openai:ft:gpt-3.5-turbo-0125:your-org::REPLACE-ME', '--out', join(tmp.path, 'ft2')], /--agent1: .* placeholder model id/, join(tmp.path, 'ft2'));
  });
});
