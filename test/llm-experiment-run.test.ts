import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseExperiment } from '../cli/experiment.js';
import { startFakeLlmServer, type FakeLlmServer } from '../testkit/fake-llm-server.js';
import { tempDir } from './helpers/processes.js';
import { cleanEnv, parleyRun, readEpisodes, SMALL } from './llm-run-helpers.js';

/** Issue 3: per-seat provider settings in the experiment file (base URL, key variable, params). */
describe('experiment file with per-seat LLM settings', () => {
  let server: FakeLlmServer;
  const dir = tempDir('llm-experiment');

  beforeAll(async () => {
    server = await startFakeLlmServer({ requireKey: 'seat-key' });
  });
  afterAll(async () => {
    await server.close();
    dir.remove();
  });

  it('routes each seat to its own server, key variable and sampling params', async () => {
    const file = join(dir.path, 'experiment.yaml');
    writeFileSync(
      file,
      [
        'modes: agents',
        'limit: 1',
        'agent1:',
        '  spec: openai:local-llama',
        `  baseURL: ${server.openaiBaseURL}`,
        '  apiKeyEnv: LOCAL_LLM_KEY',
        '  params: { temperature: 0.3, top_p: 0.9, structuredOutput: json_object }',
        'agent2:',
        '  spec: mistral:open-mixtral-8x7b',
        `  baseURL: ${server.url}`,
        '  apiKeyEnv: LOCAL_LLM_KEY',
        '  params: { temperature: 0.7, stream: true }',
        '',
      ].join('\n'),
    );
    // The global variables point nowhere useful: the per-seat settings must win.
    const env = cleanEnv({ LOCAL_LLM_KEY: 'seat-key', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', MISTRAL_BASE_URL: 'http://127.0.0.1:9' });
    const out = join(dir.path, 'run');
    const run = await parleyRun([...SMALL, '--experiment', file, '--out', out], env);
    expect(run.code, run.stderr).toBe(0);
    const [episode] = readEpisodes(out);
    expect(episode!.status).toBe('ok');
    expect(episode!.seats.map((s) => [s.model, s.params])).toEqual([
      ['local-llama', { temperature: 0.3, top_p: 0.9 }],
      ['open-mixtral-8x7b', { temperature: 0.7 }],
    ]);
    const openai = server.requests.filter((q) => q.body.model === 'local-llama');
    const mistral = server.requests.filter((q) => q.body.model === 'open-mixtral-8x7b');
    expect(openai.length).toBeGreaterThan(0);
    expect(mistral.length).toBeGreaterThan(0);
    expect(openai.every((q) => q.body.temperature === 0.3 && q.body.top_p === 0.9 && (q.body.response_format as { type: string }).type === 'json_object')).toBe(true);
    expect(mistral.every((q) => q.body.temperature === 0.7 && q.body.stream === true)).toBe(true);
  });

  it('names the file, line and key of a misspelt per-seat setting', () => {
    const r = parseExperiment('agent1:\n  spec: openai:gpt-4\n  base_url: http://x/v1\n', 'exp.yaml');
    expect(r).toEqual({ ok: false, message: expect.stringMatching(/^exp\.yaml:3: agent1(\.base_url)?: .*base_url/) });
  });

  it('a missing custom key variable is named before any episode', async () => {
    const file = join(dir.path, 'nokey.yaml');
    writeFileSync(file, 'modes: agents\nagent1: { spec: openai:gpt-4, apiKeyEnv: MY_TEAM_OPENAI_KEY }\nagent2: bot\n');
    const run = await parleyRun([...SMALL, '--experiment', file, '--out', join(dir.path, 'nokey')], cleanEnv({ OPENAI_API_KEY: 'not-this-one' }));
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('MY_TEAM_OPENAI_KEY');
  });
});
