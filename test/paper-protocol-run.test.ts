import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { parleyInProcess } from './helpers/in-process-parley.js';
import type { EpisodeRecord } from '../protocol/index.js';
import type { Scenario } from '../scenarios/model.js';
import { describeWithData, sotopiaData } from './helpers/reference-data.js';
import { cassetteText, expectNoPartnerSecret, paperHistorySaidLines } from './helpers/paper-prompts.js';
import { cleanEnv, parleyRunInProcess, readEpisodes, type RecordedCall, recordedCalls } from './llm-run-helpers.js';
import { fakeLlmSuite } from './helpers/fake-llm-suite.js';

const data = sotopiaData();
const SOTOPIA = data.dir;
const readJsonl = <T>(file: string): T[] => readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as T);
const content = cassetteText;

/**
 * Issue 9, Contract 2: `parley run --scenarios S.jsonl --subset mutual_friends --protocol paper --modes
 * agents,mindreaders,script` with `openai:` seats and writer against the fake OpenAI-compatible server;
 * every request read back from the cassettes and checked against what SOTOPIA's prompts carry.
 */
describeWithData(data, '--protocol paper on SOTOPIA MutualFriends with openai: seats (issue 9, Contract 2)', () => {
  const suite = fakeLlmSuite('paper-protocol');
  const { tmp } = suite;
  const out = join(tmp.path, 'run');
  let records: EpisodeRecord[];
  let scenarios: Map<string, Scenario>;
  let code: number | null;
  let stderr: string;
  /** Cassette entries by mode, each with its episode's scenario and seat. */
  let calls: RecordedCall[] = [];

  beforeAll(async () => {
    const file = join(tmp.path, 'S.jsonl');
    expect((await parleyInProcess(['scenarios', 'import', 'sotopia', SOTOPIA, '--out', file])).code).toBe(0);
    // --multiplex: LLM seats of different episodes share warm agent processes (never two of one episode). The
    // contract is about what each request carries, which hosting does not change (how seats are hosted:
    // test/isolation-pooling.test.ts).
    const run = await parleyRunInProcess([
      '--scenarios', file, '--subset', 'mutual_friends', '--protocol', 'paper', '--selection', 'all', '--modes', 'agents,mindreaders,script',
      '--agent1', 'openai:gpt-3.5-turbo', '--agent2', 'openai:gpt-3.5-turbo', '--script-writer', 'openai:gpt-3.5-turbo', '--concurrency', '4', '--multiplex', '--out', out,
    ], cleanEnv(suite.server.env()), 300_000);
    code = run.code;
    stderr = run.stderr;
    records = readEpisodes(out);
    scenarios = new Map(readJsonl<Scenario>(join(out, 'scenarios.jsonl')).map((s) => [s.id, s]));
    calls = recordedCalls(out, records);
  }, 400_000);

  it('runs all 50 MutualFriends instances in each mode, recorded as protocol paper', () => {
    expect(code, stderr).toBe(0);
    expect(records).toHaveLength(150);
    expect(records.filter((r) => r.status !== 'ok')).toEqual([]);
    const run = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'));
    expect(run.protocol).toMatchObject({ name: 'paper', backgrounds: 'code', scriptFormat: 'text', stopRule: 'code', leakJudgeOnly: [], showRelationshipStory: false });
    expect(calls.filter((c) => c.mode === 'script')).toHaveLength(50);
    expect(calls.filter((c) => c.mode !== 'script').length).toBeGreaterThan(400);
  });

  it('no episode ends by a task move', () => {
    for (const r of records) expect(['leave', 'idle', 'max_turns', 'script_end']).toContain(r.termination.reason);
    for (const r of records) for (const t of r.turns) expect(t.action?.type === 'action' && /^\s*select\b/i.test(t.action.argument)).toBe(false);
  });

  it('every agent prompt names both participants', () => {
    for (const c of calls.filter((x) => x.mode !== 'script')) {
      const names = c.scenario.seats.map((s) => s.character.name);
      expect(content(c.entry)).toContain(`Participants: ${names[0]} and ${names[1]}`);
    }
  });

  it('no prompt shows a profile field SOTOPIA does not render, a countdown, task moves or the relationship story', () => {
    for (const c of calls) {
      const text = content(c.entry);
      for (const label of ['Big Five', 'MBTI', 'Moral values', 'Schwartz', 'Decision-making style', 'turns left', 'ends after', 'select <', 'exactly one friend']) {
        expect(text, `${c.mode}/${c.seat}`).not.toContain(label);
      }
      for (const s of c.scenario.seats) {
        const ch = s.character;
        if (ch.bigFive) expect(text).not.toContain(ch.bigFive);
        if (ch.mbti) expect(text).not.toMatch(new RegExp(`\\b${ch.mbti}\\b`));
      }
      if (c.scenario.relationship.story) expect(text).not.toContain(c.scenario.relationship.story);
    }
  });

  it('agents-mode prompts hold no partner secret, not even four of its content words in a row', () => {
    const agents = calls.filter((c) => c.mode === 'agents');
    expect(agents.length).toBeGreaterThan(100);
    expectNoPartnerSecret(agents);
  });

  it('the conversation appears as `Turn #n: <Name> said: "…"` lines', () => {
    expect(paperHistorySaidLines(calls)).toBeGreaterThan(300);
    const names = records[0]!.seats.map((s) => scenarios.get(records[0]!.scenarioId)!.seats.find((x) => x.seat === s.seat)!.character.name);
    expect(calls.some((c) => content(c.entry).includes(`Turn #0: ${names[0]} said: "`))).toBe(true);
  });

  it('script requests ask for free text and hold no judge-only text', () => {
    const scripts = calls.filter((c) => c.mode === 'script');
    for (const c of scripts) {
      expect(c.entry.request.json ?? null).toBeNull();
      expect(content(c.entry)).toMatch(/Turn #x/);
      expect(c.scenario.judgeOnly.trim()).not.toBe('');
      expect(content(c.entry)).not.toContain(c.scenario.judgeOnly.trim());
    }
    const sent = suite.server.requests.filter((q) => JSON.stringify(q.body.messages).includes('Turn #x'));
    expect(sent).toHaveLength(50);
    for (const q of sent) expect(q.body.response_format).toBeUndefined();
    // The free-text scripts were parsed into turn records like the live modes'.
    for (const r of records.filter((x) => x.mode === 'script')) expect(r.turns.map((t) => t.action?.type)).toEqual(['speak', 'speak', 'speak', 'speak', 'leave']);
  });
});
