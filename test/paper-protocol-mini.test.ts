import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parleyInProcess } from './helpers/in-process-parley.js';
import type { EpisodeRecord } from '../protocol/index.js';
import { sotopiaMiniDir } from './helpers/reference-data.js';
import { cassetteText, expectNoPartnerSecret, paperHistorySaidLines } from './helpers/paper-prompts.js';
import { cleanEnv, parleyRunInProcess, readEpisodes, type RecordedCall, recordedCalls } from './llm-run-helpers.js';
import { fakeLlmSuite } from './helpers/fake-llm-suite.js';

const content = cassetteText;

/**
 * `--protocol paper` on every clone: the project's SOTOPIA-shaped fixture (six instances, MutualFriends,
 * Craigslist and open scenarios, one relationship story naming a secret) in all three modes with `openai:`
 * seats against the fake server, every request read back from the cassettes. The same properties are
 * checked over SOTOPIA's real instances by paper-protocol-run.test.ts where the data is present.
 */
describe('--protocol paper on the SOTOPIA-shaped fixture (every clone)', () => {
  const suite = fakeLlmSuite('paper-mini');
  const { tmp } = suite;
  const out = join(tmp.path, 'run');
  let records: EpisodeRecord[];
  let code: number | null;
  let stderr: string;
  let calls: RecordedCall[] = [];

  beforeAll(async () => {
    const file = join(tmp.path, 'S.jsonl');
    expect((await parleyInProcess(['scenarios', 'import', 'sotopia', sotopiaMiniDir(), '--out', file])).code).toBe(0);
    // --multiplex: seats of different episodes share warm agent processes (never two of one episode); what each
    // request carries does not depend on how seats are hosted.
    const run = await parleyRunInProcess([
      '--scenarios', file, '--protocol', 'paper', '--selection', 'all', '--modes', 'agents,mindreaders,script',
      '--agent1', 'openai:gpt-3.5-turbo', '--agent2', 'openai:gpt-3.5-turbo', '--script-writer', 'openai:gpt-3.5-turbo', '--concurrency', '4', '--multiplex', '--out', out,
    ], cleanEnv(suite.server.env()), 120_000);
    code = run.code;
    stderr = run.stderr;
    records = readEpisodes(out);
    calls = recordedCalls(out, records);
  });

  it('runs the six instances in each mode, recorded as protocol paper', () => {
    expect(code, stderr).toBe(0);
    expect(records).toHaveLength(18);
    expect(records.filter((r) => r.status !== 'ok')).toEqual([]);
    expect(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')).protocol).toMatchObject({ name: 'paper', agentTemperature: 'code', replyReading: 'code' });
  });

  it("samples agents and mindreaders at 1.0 and the script writer at 0.7, as SOTOPIA's runner scripts (no seat named a temperature)", () => {
    const temperatures = (modes: string[]) => new Set(calls.filter((c) => modes.includes(c.mode)).map((c) => c.entry.request.params?.['temperature']));
    expect(temperatures(['agents', 'mindreaders'])).toEqual(new Set([1]));
    expect(temperatures(['script'])).toEqual(new Set([0.7]));
  });

  it('every agent prompt names both participants and shows no profile field SOTOPIA does not render', () => {
    const agents = calls.filter((c) => c.mode !== 'script');
    expect(agents.length).toBeGreaterThan(20);
    for (const c of agents) {
      const text = content(c.entry);
      const names = c.scenario.seats.map((s) => s.character.name);
      expect(text).toContain(`Participants: ${names[0]} and ${names[1]}`);
      for (const label of ['Big Five', 'MBTI', 'Moral values', 'Schwartz', 'Decision-making style', 'turns left']) expect(text).not.toContain(label);
    }
  });

  it('no prompt carries the relationship story, and agents mode no partner secret, even paraphrased', () => {
    for (const c of calls) if (c.scenario.relationship.story) expect(content(c.entry)).not.toContain(c.scenario.relationship.story);
    expectNoPartnerSecret(calls);
  });

  it('the history is `Turn #n: <Name> said: "…"` lines, and script requests hold no judge-only text', () => {
    expect(paperHistorySaidLines(calls)).toBeGreaterThan(20);
    const scripts = calls.filter((c) => c.mode === 'script');
    expect(scripts).toHaveLength(6);
    for (const c of scripts) if (c.scenario.judgeOnly.trim()) expect(content(c.entry)).not.toContain(c.scenario.judgeOnly.trim());
  });
});
