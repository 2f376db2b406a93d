import { findDefinition } from '../simulation/index.js';
import { cpSync, appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EpisodeRecord } from '../protocol/index.js';
import type { ReceivedRequest } from '../testkit/fake-llm-server.js';
import { fakeLlmSuite } from './helpers/fake-llm-suite.js';
import { auditRun } from './helpers/audit.js';
import { tempDir } from './helpers/processes.js';
import { contentWords } from './helpers/secret-runs.js';
import { cleanEnv, parleyCliInProcess, parleyRunInProcess, readEpisodes, turnsById } from './llm-run-helpers.js';

/** Words found in no scenario, prompt or bot line of Parley: if one reaches a seat, the whisper did. */
const WHISPER = 'the brass owl sleeps beneath lantern bridge';
const WORDS = contentWords(WHISPER);
const holdsAWord = (text: string) => WORDS.filter((w) => new RegExp(`\\b${w}`, 'i').test(text));

const ledger = (out: string, r: EpisodeRecord, seat: string) => readFileSync(join(out, 'ledgers', r.episodeId, `${seat}.jsonl`), 'utf8');
const frames = (text: string) => text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; turn?: number; action?: { to?: string[] } });
const promptOf = (req: ReceivedRequest) => ((req.body as { messages?: Array<{ content?: unknown }> }).messages ?? []).map((m) => String(m.content ?? '')).join('\n');

/** The whisper's checks every run below shares: routing, the record, the ledgers and the leak audit. */
function expectWhisperKept(out: string, records: EpisodeRecord[]) {
  expect(records.length).toBeGreaterThan(0);
  for (const r of records) {
    expect(r.status, JSON.stringify(r.errors)).toBe('ok');
    expect(r.turns[0]).toMatchObject({ seat: 'agent1', action: { type: 'speak', argument: expect.stringContaining(WHISPER), to: ['agent2'] }, to: ['agent1', 'agent2'] });
    // agent2's ledger holds it, marked private; agent3's holds no frame of turn 0 and no word of it.
    expect(frames(ledger(out, r, 'agent2')).find((f) => f.type === 'turn.event' && f.turn === 0)?.action?.to).toEqual(['agent2']);
    const third = ledger(out, r, 'agent3');
    expect(frames(third).filter((f) => f.type === 'turn.event').map((f) => f.turn)).not.toContain(0);
    expect(frames(third).some((f) => f.type === 'turn.event')).toBe(true);
    expect(holdsAWord(third)).toEqual([]);
  }
  const audit = auditRun(out);
  expect(audit.violations).toEqual([]);
  expect(audit.checked.whispers).toBe(records.length);
  expect(audit.checked.whisperDeliveries).toBe(2 * records.length);
}

/** Issue 39, contract 1: agent1 whispers to agent2 on its first turn, in a group of three. */
describe('private messages: a 3-seat whisper with bots, agents and mindreaders mode', () => {
  const tmp = tempDir('whispers-bots');
  const out = join(tmp.path, 'R');
  let run: Awaited<ReturnType<typeof parleyRunInProcess>>;

  beforeAll(async () => {
    const experiment = join(tmp.path, 'whispers.yaml');
    writeFileSync(experiment, [
      'scenarios: builtin', 'subset: groups', 'modes: [agents, mindreaders]',
      'agents:', `  - { spec: bot, params: { whisperTo: agent2, whisperText: "${WHISPER}" } }`, '  - { spec: bot }', '  - { spec: bot }', '',
    ].join('\n'));
    run = await parleyRunInProcess(['--experiment', experiment, '--out', out], cleanEnv(), 120_000);
  });
  afterAll(() => tmp.remove());

  it('reaches agent2 marked private and agent3 not at all, in both modes (mindreading shares state, never messages); the leak audit passes', () => {
    expect(run.code, run.stderr).toBe(0);
    const records = readEpisodes(out);
    expect(records.map((r) => r.mode).sort()).toEqual(['agents', 'agents', 'agents', 'mindreaders', 'mindreaders', 'mindreaders']);
    expectWhisperKept(out, records);
  });

  it('the audit is not blind: the whisper copied into agent3\'s ledger is reported', () => {
    const tampered = join(tmp.path, 'tampered');
    cpSync(out, tampered, { recursive: true });
    const r = readEpisodes(tampered)[0]!;
    const event = ledger(tampered, r, 'agent2').split('\n').find((l) => l.includes('"turn.event"') && l.includes(WHISPER))!;
    appendFileSync(join(tampered, 'ledgers', r.episodeId, 'agent3.jsonl'), `${event}\n`);
    const violations = auditRun(tampered).violations.join('\n');
    expect(violations).toContain(`${r.episodeId}/agent3: holds turn 0, a private move to agent2`);
    expect(violations).toContain('words of the private move of turn 0 reached a non-recipient');
  });

  it('parley show: agent2\'s transcript marks it [private to …]; agent3\'s never shows it; the full view shows it with its recipients', async () => {
    const r = readEpisodes(out)[0]!;
    const full = await parleyCliInProcess(['show', out, r.episodeId], cleanEnv());
    expect(full.code, full.stderr).toBe(0);
    expect(full.stdout).toMatch(/\[private to [^\]]+\][^\n]*brass owl/);
    const two = await parleyCliInProcess(['show', out, r.episodeId, '--seat', 'agent2'], cleanEnv());
    expect(two.stdout).toContain(WHISPER);
    expect(two.stdout).toMatch(/turn 0: agent1 \[speak\] "the brass owl[^\n]*private to \["agent2"\]/);
    const three = await parleyCliInProcess(['show', out, r.episodeId, '--seat', 'agent3'], cleanEnv());
    expect(three.code, three.stderr).toBe(0);
    expect(holdsAWord(three.stdout)).toEqual([]);
  });

  it('parley fork at turn 2 replays the whisper to agent1 and agent2 only; the fork passes the leak audit', async () => {
    const parent = readEpisodes(out).find((r) => r.mode === 'agents')!;
    const forked = join(tmp.path, 'F');
    const fork = await parleyCliInProcess(['fork', out, parent.episodeId, '--at', '2', '--out', forked], cleanEnv());
    expect(fork.code, fork.stderr).toBe(0);
    const records = readEpisodes(forked);
    expect(records).toHaveLength(1);
    expect(records[0]!.turns[0]).toEqual(parent.turns[0]);
    expectWhisperKept(forked, records);
  });
});

/**
 * The same with LLM seats against the fake OpenAI-compatible server, under both protocols: agent1's first
 * reply whispers to agent2; no later request agent3's policy sends (captured at the server) holds a word of
 * it, while agent2's later requests show it as `[private to …]`.
 */
describe.each(['parley', 'paper'] as const)('private messages with LLM seats under --protocol %s', (protocol) => {
  const suite = fakeLlmSuite(`whispers-llm-${protocol}`);
  const { tmp } = suite;
  const out = join(tmp.path, 'R');
  let run: Awaited<ReturnType<typeof parleyRunInProcess>>;

  beforeAll(async () => {
    // The first request of the run is agent1's turn 0: whisper to the first name it may address (agent2).
    suite.server.enqueue((req) => {
      const prompt = promptOf(req);
      const schema = (req.body as { response_format?: { json_schema?: { schema?: { properties?: { to?: { items?: { enum?: string[] } } } } } } }).response_format?.json_schema?.schema;
      const name = schema?.properties?.to?.items?.enum?.[0] ?? /chosen from "([^"]+)"/.exec(prompt)?.[1];
      return { kind: 'content', content: JSON.stringify({ action_type: 'speak', argument: WHISPER, to: [name] }) };
    });
    run = await parleyRunInProcess(
      ['--scenarios', 'builtin', '--subset', 'groups', '--modes', 'agents', '--limit', '1', '--agent1', 'openai:gpt-3.5-turbo', '--max-turns', '6', '--protocol', protocol, '--selection', 'all', '--out', out],
      cleanEnv(suite.server.env()),
      120_000,
    );
  });

  it('agent3\'s ledger and every request agent3 sent hold no word of it; agent2\'s hold it marked private; the audit passes', () => {
    expect(run.code, run.stderr).toBe(0);
    const records = readEpisodes(out);
    expectWhisperKept(out, records);
    const scenario = JSON.parse(readFileSync(join(out, 'scenarios.jsonl'), 'utf8').split('\n')[0]!) as { seats: Array<{ seat: string; character: { name: string } }> };
    const name = (seat: string) => scenario.seats.find((s) => s.seat === seat)!.character.name;
    const own = (seat: string) => (req: ReceivedRequest) => promptOf(req).includes(findDefinition(protocol)!.seat.prompts === 'sotopia' ? `You are ${name(seat)}.` : `Your character is ${name(seat)}.`);
    const third = suite.server.requests.filter(own('agent3'));
    const second = suite.server.requests.filter(own('agent2'));
    expect(third.length).toBeGreaterThan(0);
    for (const req of third) expect(holdsAWord(promptOf(req))).toEqual([]);
    // Not vacuous: agent2's prompts after turn 0 carry it, marked private to agent2.
    expect(second.length).toBeGreaterThan(0);
    for (const req of second) expect(promptOf(req)).toContain(`${name('agent1')} [private to ${name('agent2')}] said: "${WHISPER}"`);
  });

  it('--replay R: the same turns, the whisper private again, from the cassettes with no request sent', async () => {
    const before = suite.server.requests.length;
    const again = join(tmp.path, 'R2');
    const replay = await parleyRunInProcess(['--replay', out, '--out', again], cleanEnv(), 120_000);
    expect(replay.code, replay.stderr).toBe(0);
    expect(suite.server.requests.length).toBe(before);
    expect(turnsById(readEpisodes(again))).toEqual(turnsById(readEpisodes(out)));
    expectWhisperKept(again, readEpisodes(again));
  });
});

/**
 * Script mode: the script writer sees every character in full (the paper's script mode) and may write a
 * private turn; it is recorded private (to) and the judge's view and transcripts mark it.
 */
describe('private messages in script mode (an LLM script writer against the fake server)', () => {
  const suite = fakeLlmSuite('whispers-script');
  const { tmp } = suite;
  const out = join(tmp.path, 'R');
  let run: Awaited<ReturnType<typeof parleyRunInProcess>>;

  beforeAll(async () => {
    suite.server.enqueue({ kind: 'content', content: JSON.stringify({ turns: [
      { seat: 'agent1', action_type: 'speak', argument: WHISPER, to: ['agent2'] },
      { seat: 'agent2', action_type: 'speak', argument: 'Understood.', to: [] },
      { seat: 'agent3', action_type: 'speak', argument: 'What are you two talking about?', to: [] },
      { seat: 'agent1', action_type: 'leave', argument: '', to: [] },
    ] }) });
    run = await parleyRunInProcess(['--scenarios', 'builtin', '--subset', 'groups', '--modes', 'script', '--limit', '1', '--script-writer', 'openai:gpt-3.5-turbo', '--selection', 'all', '--out', out], cleanEnv(suite.server.env()), 120_000);
  });

  it('the writer was told every seat\'s goal and how to make a turn private; the record keeps the turn private; show marks it', async () => {
    expect(run.code, run.stderr).toBe(0);
    const [record] = readEpisodes(out);
    expect(record!.turns[0]).toMatchObject({ seat: 'agent1', action: { argument: WHISPER, to: ['agent2'] }, to: ['agent1', 'agent2'] });
    expect(record!.turns[1]!.to).toBeUndefined();
    const prompt = promptOf(suite.server.requests[0]!);
    const scenario = JSON.parse(readFileSync(join(out, 'scenarios.jsonl'), 'utf8').split('\n')[0]!) as { seats: Array<{ goal: string }> };
    for (const seat of scenario.seats) expect(prompt).toContain(seat.goal.trim().slice(0, 60));
    expect(prompt).toContain('"to" makes a turn private');
    const shown = await parleyCliInProcess(['show', out, record!.episodeId], cleanEnv());
    expect(shown.stdout).toMatch(/#0 [^\n]*\[private to [^\]]+\]: "the brass owl/);
  });
});

