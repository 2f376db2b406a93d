import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parleyInProcess } from './helpers/in-process-parley.js';
import { startFakeLlmServer, reply, type FakeLlmServer, type ReceivedRequest } from '../testkit/fake-llm-server.js';
import { tempDir } from './helpers/processes.js';
import { cleanEnv, parleyCliInProcess, parleyRunInProcess } from './llm-run-helpers.js';
import type { Scenario } from '../scenarios/model.js';
import { sotopiaData } from './helpers/reference-data.js';

// The one lookup of SOTOPIA's real files (../shared/data, else the scenarios-fetch cache).
const sotopia = sotopiaData();
const SOTOPIA = sotopia.dir;
const hasSotopia = !sotopia.skip;
const text = (r: ReceivedRequest) => (r.body.messages ?? []).map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n');
const isJudge = (r: ReceivedRequest) => /rate how well each participant reached their goals/.test(text(r));
const isNaturalness = (r: ReceivedRequest) => /Interaction 1:/.test(text(r)) && /Interaction 2:/.test(text(r));
const APPENDIX_E = 'Which of the two interactions sounds more like a natural interaction that two people would have in this scenario?';

/** Seats named in the judge prompt's `one entry per participant: "a" (…), "b" (…)` line. */
function judgeSeats(r: ReceivedRequest): string[] {
  const line = text(r).split('\n').find((l) => l.includes('one entry per participant')) ?? '';
  return [...line.slice(line.indexOf('participant:')).matchAll(/"([^"]+)" \(/g)].map((m) => m[1]!);
}

function judgeReply(seats: string[]): string {
  const dims = ['believability', 'relationship', 'knowledge', 'secret', 'social_rules', 'financial_and_material_benefits', 'goal'];
  const evaluation = Object.fromEntries(dims.map((d) => [d, { reasoning: `${d} ok`, score: 0 }]));
  return JSON.stringify({ evaluations: Object.fromEntries(seats.map((s) => [s, evaluation])) });
}

/**
 * Issue 20, Contract 1: `parley run --protocol paper` on SOTOPIA instances in all three modes, then
 * `parley eval --judge openai:gpt-4-0613`, then `parley compare --protocol paper`, against the fake
 * OpenAI-compatible server; every logged request is checked.
 */
describe.skipIf(!hasSotopia)('--protocol paper scoring: judge and naturalness requests (issue 20, Contract 1; data: ../shared/data/sotopia)', () => {
  const tmp = tempDir('paper-scoring');
  const out = join(tmp.path, 'run');
  let server: FakeLlmServer;
  let scenarios: Scenario[];
  const codes: Record<string, { code: number | null; stderr: string }> = {};

  beforeAll(async () => {
    server = await startFakeLlmServer({
      default: (req) => (isJudge(req) ? reply.text(judgeReply(judgeSeats(req))) : isNaturalness(req) ? reply.json({ reasoning: 'flows', more_natural: '1' }) : reply.plausible()),
    });
    const all = join(tmp.path, 'all.jsonl');
    expect((await parleyInProcess(['scenarios', 'import', 'sotopia', SOTOPIA, '--out', all])).code).toBe(0);
    // Two instances: one MutualFriends (task data, judge-only answer) and one open SOTOPIA scenario.
    const lines = readFileSync(all, 'utf8').split('\n').filter((l) => l.trim() !== '');
    const parsed = lines.map((l) => JSON.parse(l) as Scenario);
    const pick = [parsed.find((s) => s.kind === 'mutual_friends'), parsed.find((s) => s.kind === 'open' && s.relationship.story)].filter((s): s is Scenario => !!s);
    scenarios = pick;
    const file = join(tmp.path, 'S.jsonl');
    writeFileSync(file, pick.map((s) => JSON.stringify(s)).join('\n') + '\n');
    const env = cleanEnv(server.env());
    // --multiplex: seats of different episodes share warm agent processes (never two of one episode); what each
    // request carries does not depend on how seats are hosted.
    const run = await parleyRunInProcess([
      '--scenarios', file, '--protocol', 'paper', '--selection', 'all', '--modes', 'agents,mindreaders,script', '--max-turns', '6',
      '--agent1', 'openai:gpt-3.5-turbo-0613', '--agent2', 'openai:gpt-3.5-turbo-0613', '--script-writer', 'openai:gpt-3.5-turbo-0613', '--concurrency', '2', '--multiplex', '--out', out,
    ], env, 240_000);
    codes['run'] = run;
    codes['eval'] = await parleyCliInProcess(['eval', out, '--judge', 'openai:gpt-4-0613'], env);
    codes['compare'] = await parleyCliInProcess(['compare', out, out, '--mode-a', 'script', '--mode-b', 'agents', '--protocol', 'paper', '--judge', 'openai:gpt-4-0613'], env);
  }, 500_000);
  afterAll(async () => {
    await server.close();
    tmp.remove();
  });

  it('run, eval and compare all succeed and send judge and naturalness requests', () => {
    for (const [k, v] of Object.entries(codes)) expect(v.code, `${k}: ${v.stderr}`).toBe(0);
    expect(scenarios.length).toBe(2);
    expect(server.requests.filter(isJudge).length).toBe(6);
    expect(server.requests.filter(isNaturalness).length).toBeGreaterThan(0);
  });

  it('no judge or naturalness request carries response_format', () => {
    const scoring = server.requests.filter((r) => isJudge(r) || isNaturalness(r));
    expect(scoring.length).toBeGreaterThan(0);
    for (const r of scoring) expect(r.body.response_format, text(r).slice(0, 200)).toBeUndefined();
  });

  // Generators (agents, mindreaders, script writer), judge and naturalness alike (issue 20, S1).
  it('no request at all carries response_format (generators included)', () => {
    expect(server.requests.filter((r) => r.body.response_format !== undefined)).toEqual([]);
  });

  it('every judge request carries both secrets and both goals, and no relationship or extra profile field', () => {
    const byId = new Map(scenarios.map((s) => [s, s]));
    for (const r of server.requests.filter(isJudge)) {
      const t = text(r);
      expect(r.body.messages).toHaveLength(1);
      const s = [...byId.keys()].find((x) => x.seats.every((seat) => t.includes(seat.character.name)))!;
      expect(s).toBeDefined();
      for (const seat of s.seats) {
        expect(t).toContain(seat.character.secret);
        expect(t).toContain(seat.goal);
      }
      if (s.relationship.story) expect(t).not.toContain(s.relationship.story);
      expect(t).not.toMatch(/Relationship:|Big Five|MBTI|Moral values|Schwartz|Decision-making style|private hints|private task data|evaluator only/);
      for (const seat of s.seats) {
        const c = seat.character;
        for (const v of [c.bigFive, c.mbti, c.decisionStyle, ...(c.moralValues ?? []), ...(c.schwartzValues ?? [])]) {
          if (v && v.length > 4 && ![c.personality, c.publicInfo, seat.goal, c.secret].some((a) => a?.includes(v))) expect(t).not.toContain(v);
        }
      }
    }
  });

  it('every naturalness request asks the appendix-E question', () => {
    for (const r of server.requests.filter(isNaturalness)) expect(text(r)).toContain(APPENDIX_E);
  });
});
