import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readCassette } from '../llm/index.js';
import { fakeLlmSuite } from './helpers/fake-llm-suite.js';
import { importSotopiaMini } from './helpers/paper-mini-suite.js';
import { cleanEnv, parleyRunInProcess, readEpisodes } from './llm-run-helpers.js';
import { parleyCliInProcess, readJsonl, type ChatLine, type IndexLine } from './training-helpers.js';

/**
 * Issue 37: a fine-tuning example carries exactly the prompt the seat's process was given, whatever the
 * protocol. Under `paper` and under `parley`, with LLM seats against the fake server: every agents-mode
 * example's prompt is a request in that seat's cassette, and a script episode's examples (agents view)
 * are rendered as that protocol's agents were told: the first move's prompt equals the first request a
 * live agent of the same scenario and seat sent (before, a paper run's script examples used Parley's prompt).
 */
const suite = fakeLlmSuite('ft-protocols');
const { tmp } = suite;
let scenarios: string;

beforeAll(async () => {
  scenarios = join(tmp.path, 'S.jsonl');
  await importSotopiaMini(scenarios);
});

/** Whether a protocol's agent prompt carries SOTOPIA's context block (a `Participants:` line). */
const SOTOPIA_CONTEXT = { paper: true, parley: false } as const;

const prompt = (messages: ChatLine['messages']) => JSON.stringify(messages.filter((m) => m.role !== 'assistant').map((m) => [m.role, m.content]));

describe.each(['paper', 'parley'] as const)('export --format openai-chat under --protocol %s', (protocol) => {
  const out = () => join(tmp.path, protocol);

  it('agents examples equal the cassettes; script examples are rendered as the protocol\'s agents were told', async () => {
    // --selection all: the fake's seats leave at turn 4, so under paper's first-valid every episode was short
    // and re-drawn to the draw limit (a fresh agent pool a round), with nothing more to check.
    // --multiplex: seats of different episodes share warm agent processes; a seat's prompt does not depend on it.
    const run = await parleyRunInProcess(['--scenarios', scenarios, '--protocol', protocol, '--selection', 'all', '--modes', 'agents,script', '--agent1', 'openai:gpt-3.5-turbo',
      '--script-writer', 'openai:gpt-3.5-turbo', '--max-turns', '6', '--concurrency', '2', '--multiplex', '--out', out()], cleanEnv(suite.server.env()), 180_000);
    expect(run.code, run.stderr).toBe(0);
    const file = join(tmp.path, `${protocol}.jsonl`);
    const exported = await parleyCliInProcess(['export', out(), '--format', 'openai-chat', '--view', 'agents', '--keep-duplicates', '--out', file], cleanEnv());
    expect(exported.code, exported.stderr).toBe(0);
    const lines = readJsonl<ChatLine>(file);
    const index = readJsonl<IndexLine>(join(tmp.path, `${protocol}.index.jsonl`));
    expect(lines).toHaveLength(index.length);
    const records = new Map(readEpisodes(out()).map((r) => [r.episodeId, r]));

    // Every live example is a request its seat's process sent (the cassette holds each call as sent).
    const sent = (episodeId: string, seat: string) => (readCassette(join(out(), 'cassettes', episodeId, `${seat}.jsonl`)) ?? []).map((e) => prompt(e.request.messages as ChatLine['messages']));
    const live = index.map((ix, i) => ({ ix, line: lines[i]! })).filter(({ ix }) => ix.mode === 'agents');
    expect(live.length).toBeGreaterThan(10);
    for (const { ix, line } of live) expect(sent(ix.episodeId, ix.seat)).toContain(prompt(line.messages));

    // A script episode's first example (its first seat, turn 0) against the first request of a live agent
    // of the same scenario and seat: same view, same protocol, so the same prompt.
    const script = index.map((ix, i) => ({ ix, line: lines[i]! })).filter(({ ix }) => ix.mode === 'script' && ix.turn === 0);
    expect(script.length).toBeGreaterThan(2);
    for (const { ix, line } of script) {
      const agentsEpisode = [...records.values()].find((r) => r.mode === 'agents' && r.scenarioId === ix.scenarioId)!;
      const first = (readCassette(join(out(), 'cassettes', agentsEpisode.episodeId, `${ix.seat}.jsonl`)) ?? [])[0]!;
      expect(prompt(line.messages)).toBe(prompt(first.request.messages as ChatLine['messages']));
    }
    // What tells the two protocols' prompts apart: SOTOPIA's `Participants:` context line is paper's alone.
    for (const { line } of script) expect(prompt(line.messages).includes('Participants: ')).toBe(SOTOPIA_CONTEXT[protocol]);
    expect(readdirSync(out())).toContain('cassettes');
  }, 240_000);
});
