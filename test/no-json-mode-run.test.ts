import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parleyInProcess } from './helpers/in-process-parley.js';
import { startFakeLlmServer, type FakeLlmServer } from '../testkit/fake-llm-server.js';
import { tempDir } from './helpers/processes.js';
import { cleanEnv, parleyRunInProcess, readEpisodes, readRunJson, SMALL } from './llm-run-helpers.js';

/**
 * Issue 10, contract 2: against a server that answers 400 to any `response_format` (as OpenAI's
 * gpt-4-0613 does), a run with `openai:gpt-4-0613` agents and script writer completes every episode
 * without errors, `parley eval --judge openai:gpt-4-0613` scores every seat, and run.json counts the
 * structured-output fallbacks. No extra parameter anywhere. Generators run under `--protocol parley`:
 * under `paper` they ask for no response_format at all (issue 20, S1), so only `parley` exercises the ladder.
 */
describe('GPT-4-0613 without JSON mode (issue 10, contract 2)', () => {
  let server: FakeLlmServer;
  const dir = tempDir('no-json-mode');

  beforeAll(async () => {
    server = await startFakeLlmServer({ rejectResponseFormat: true });
  });
  afterAll(async () => {
    await server.close();
    dir.remove();
  });

  it('runs agents and script episodes with no errors and counts the fallbacks in run.json', async () => {
    const spec = 'openai:gpt-4-0613';
    const run = await parleyRunInProcess(
      [...SMALL, '--protocol', 'parley', '--modes', 'agents,script', '--agent1', spec, '--agent2', spec, '--script-writer', spec, '--limit', '4', '--out', dir.path],
      cleanEnv(server.env()),
      120_000,
    );
    expect(run.code, run.stderr).toBe(0);
    const records = readEpisodes(dir.path);
    expect(records).toHaveLength(4);
    for (const r of records) {
      expect(r.status, JSON.stringify(r.termination)).toBe('ok');
      for (const t of r.turns) expect(t.error).toBeUndefined();
    }
    expect(server.requests.some((q) => q.body.response_format !== undefined)).toBe(true);
    const stats = readRunJson(dir.path).stats as unknown as { formatFallbacks: { rejected: number; jsonMode: number; prompt: number } };
    // Every generator call met a rejected response_format and was answered on the prompt rung.
    const llmCalls = server.requests.filter((q) => q.body.response_format === undefined).length;
    expect(stats.formatFallbacks.prompt).toBe(llmCalls);
    expect(stats.formatFallbacks.rejected).toBe(server.requests.filter((q) => q.body.response_format !== undefined).length);
    expect(stats.formatFallbacks.rejected).toBeGreaterThanOrEqual(2);
  });

  it('parley eval --judge openai:gpt-4-0613 scores every seat', async () => {
    const before = server.requests.length;
    const cli = await parleyInProcess(['eval', dir.path, '--judge', 'openai:gpt-4-0613'], { env: cleanEnv(server.env()) });
    const code = cli.code;
    expect(code, cli.stderr.join('\n')).toBe(0);
    const seats = readEpisodes(dir.path).reduce((n, r) => n + r.seats.length, 0);
    expect(cli.stdout.join('\n')).toContain(`${seats} seats scored, 0 evaluation errors`);
    // The run's generators play under `parley` (under `paper` nothing asks for response_format at all), so
    // the judge takes the parley view: it asks for a JSON schema, meets the 400 and falls back to the prompt.
    expect(cli.stderr.join('\n')).toContain('(full, parley view)');
    const judged = server.requests.slice(before);
    expect(judged.length).toBeGreaterThan(0);
    const fellBack = judged.filter((q) => q.body.response_format === undefined).length;
    expect(fellBack).toBeGreaterThan(0);
    // Issue 37: run.json counts the judge's fallbacks too (stats.formatFallbacks.judge), one per call answered below its rung.
    const printed = Number(/(\d+) judge calls without response_format/.exec(cli.stdout.join('\n'))?.[1]);
    expect(printed).toBe(fellBack);
    const stats = readRunJson(dir.path).stats as unknown as { formatFallbacks: { judge: number } };
    expect(stats.formatFallbacks.judge).toBe(fellBack);
  });
});
