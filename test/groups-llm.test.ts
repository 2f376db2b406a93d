import { findDefinition } from '../simulation/index.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readCassette } from '../llm/index.js';
import type { FakeLlmServer } from '../testkit/fake-llm-server.js';
import { cleanEnv, parleyCliInProcess, parleyRunInProcess, readEpisodes } from './llm-run-helpers.js';
import { fakeLlmSuite } from './helpers/fake-llm-suite.js';

const readJsonl = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const promptOf = (body: { messages?: Array<{ content?: unknown }> }) => (body.messages ?? []).map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');

/**
 * Issue 23, contract 3: LLM seats in the built-in group scenarios against an OpenAI-compatible server on
 * 127.0.0.1 (the fake, through the real SDK in each agent process), under both protocols; then
 * `parley eval` scores every seat and `parley report` has a row per seat role.
 */
describe.each(['parley', 'paper'] as const)('groups with LLM seats under --protocol %s', (protocol) => {
  const suite = fakeLlmSuite(`groups-llm-${protocol}`);
  const dir = suite.tmp;
  const out = join(dir.path, 'R');
  let runRequests: FakeLlmServer['requests'] = [];
  let runCode: number | null = null;
  let runStderr = '';

  beforeAll(async () => {
    // --multiplex: seats of different episodes share warm agent processes (never two of one episode). Contract 3
    // is about the prompts, eval and report; every seat in its own process is contract 1 (groups-run.test.ts).
    const run = await parleyRunInProcess(
      ['--scenarios', 'builtin', '--subset', 'groups', '--modes', 'agents,mindreaders', '--agent1', 'openai:gpt-3.5-turbo', '--max-turns', '8', '--concurrency', '2', '--multiplex', '--protocol', protocol, '--selection', 'all', '--out', out],
      cleanEnv(suite.server.env()),
      120_000,
    );
    runCode = run.code;
    runStderr = run.stderr;
    runRequests = [...suite.server.requests];
  });

  it('every agent prompt names all three participants, in one Participants line', () => {
    expect(runCode, runStderr).toBe(0);
    const records = readEpisodes(out);
    expect(records).toHaveLength(6);
    for (const r of records) {
      expect(r.status).toBe('ok');
      expect(r.seats.map((s) => s.model)).toEqual(['gpt-3.5-turbo', 'gpt-3.5-turbo', 'gpt-3.5-turbo']);
    }
    const scenarios = readJsonl(join(out, 'scenarios.jsonl')) as Array<{ seats: Array<{ character: { name: string } }> }>;
    const casts = scenarios.map((s) => s.seats.map((x) => x.character.name));
    expect(runRequests.length).toBe(records.reduce((n, r) => n + r.turns.length, 0));
    for (const req of runRequests) {
      const prompt = promptOf(req.body);
      // The seat's own scenario (a character may appear in two of them): the cast that includes the seat and is named in full.
      const cast = casts.find((names) => names.some((n) => prompt.includes(`You are ${n}`) || prompt.includes(`Your character is ${n}`)) && names.every((n) => prompt.includes(n)));
      expect(cast, prompt.slice(0, 400)).toBeDefined();
      const [a, b, c] = cast!;
      if (findDefinition(protocol)!.seat.prompts === 'sotopia') expect(prompt).toContain(`Participants: ${a}, ${b} and ${c}`);
      else expect(prompt).toMatch(new RegExp(`Participants, in turn order: ${a}( \\(you\\))?, ${b}( \\(you\\))? and ${c}( \\(you\\))?\\.`));
    }
    // Agents mode: each partner's goal is unknown to the seat.
    const agents = runRequests.filter((q) => /goal is unknown to you|goal: Unknown/.test(promptOf(q.body)));
    expect(agents.length).toBeGreaterThan(0);
  });

  it('the fine-tuning export has examples for every seat, each prompt equal to that seat\'s cassette request', async () => {
    const ft = join(dir.path, 'ft.jsonl');
    const exp = await parleyCliInProcess(['export', out, '--format', 'openai-chat', '--out', ft], cleanEnv());
    expect(exp.code, exp.stderr).toBe(0);
    const lines = readJsonl(ft) as Array<{ messages: Array<{ role: string; content: string }> }>;
    const index = readJsonl(join(dir.path, 'ft.index.jsonl')) as Array<{ episodeId: string; seat: string; turn: number }>;
    const records = readEpisodes(out);
    expect(lines).toHaveLength(records.reduce((n, r) => n + r.turns.length, 0));
    expect(new Set(index.map((ix) => ix.seat))).toEqual(new Set(['agent1', 'agent2', 'agent3']));
    index.forEach((ix, i) => {
      const record = records.find((r) => r.episodeId === ix.episodeId)!;
      const mine = record.turns.filter((t) => t.seat === ix.seat).map((t) => t.turn);
      const calls = readCassette(join(out, 'cassettes', ix.episodeId, `${ix.seat}.jsonl`))!;
      expect(calls).toHaveLength(mine.length);
      expect(JSON.stringify(lines[i]!.messages.slice(0, -1))).toBe(JSON.stringify(calls[mine.indexOf(ix.turn)]!.request.messages));
    });
  });

  it('parley eval scores all three seats of every episode; parley report has a row per seat role', async () => {
    const ev = await parleyCliInProcess(['eval', out, '--judge', 'openai:gpt-4'], cleanEnv(suite.server.env()));
    expect(ev.code, ev.stderr).toBe(0);
    for (const r of readEpisodes(out)) {
      const judge = (r.evaluation as { judge: { seats: Record<string, { ok: boolean }> } }).judge;
      expect(Object.keys(judge.seats).sort()).toEqual(['agent1', 'agent2', 'agent3']);
      for (const s of Object.values(judge.seats)) expect(s.ok).toBe(true);
    }
    const rep = await parleyCliInProcess(['report', out], cleanEnv());
    expect(rep.code, rep.stderr).toBe(0);
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    const section = md.slice(md.indexOf('## Judge scores by seat role'));
    expect(section.length).toBeGreaterThan(100);
    for (const mode of ['agents', 'mindreaders']) {
      for (const role of ['seat 1', 'seat 2', 'seat 3', 'auction seller', 'auction buyer']) expect(section).toMatch(new RegExp(`^\\| ${mode} \\| ${role} \\| \\d`, 'm'));
    }
    // The group tasks' own table, and paired comparisons over the three group scenarios as for pairs.
    expect(md).toMatch(/^\| agents \| auction \| 1 \| /m);
    expect(md).toMatch(/^\| agents \| split \| 1 \| /m);
    expect(md).toMatch(/\| mindreaders − agents \| goal \| 3 \| /);
    // The chart of goal by seat role (groups only).
    const chart = readFileSync(join(out, 'charts', 'goal-by-seat-role.svg'), 'utf8');
    for (const role of ['seat 1', 'seat 3', 'auction seller', 'auction buyer']) expect(chart).toContain(`>${role}<`);
  });
});
