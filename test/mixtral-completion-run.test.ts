import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCard, cardMarkdown } from '../evaluator/report/card.js';
import { loadRunDir } from '../evaluator/run-dir.js';
import { cleanEnv, parleyRun, readEpisodes, readRunJson, SMALL } from './llm-run-helpers.js';
import { fakeLlmSuite } from './helpers/fake-llm-suite.js';

/**
 * Issue 20, X1 / Contract 3: the paper's Mixtral arm runs as SOTOPIA ran it — `/v1/completions` with a
 * raw `<human>: … <bot>: ` prompt and top_p 0.7, top_k 50, max_tokens 1024 — through `parley run`.
 */
describe('Mixtral arm on the completion transport', () => {
  const suite = fakeLlmSuite('mixtral-completion');
  const dir = suite.tmp;


  it('every request goes to /v1/completions with SOTOPIA\'s sampling parameters and prompt format', async () => {
    const file = join(dir.path, 'experiment.yaml');
    const seat = [
      '  spec: openai:mistralai/Mixtral-8x7B-Instruct-v0.1',
      `  baseURL: ${suite.server.openaiBaseURL}`,
      '  params: { temperature: 0.7, top_p: 0.7, top_k: 50, max_tokens: 1024, transport: completion }',
    ];
    writeFileSync(file, ['protocol: paper', 'selection: all', 'modes: agents', 'limit: 1', 'agent1:', ...seat, 'agent2:', ...seat, ''].join('\n'));
    const out = join(dir.path, 'run');
    const run = await parleyRun([...SMALL, '--experiment', file, '--out', out], cleanEnv({ OPENAI_API_KEY: 'x' }));
    expect(run.code, run.stderr).toBe(0);
    const [episode] = readEpisodes(out);
    expect(episode!.status).toBe('ok');
    expect(suite.server.requests.length).toBeGreaterThan(0);
    for (const q of suite.server.requests) {
      expect(q.path).toBe('/v1/completions');
      expect([q.body.top_p, q.body.top_k, q.body.max_tokens, q.body.temperature]).toEqual([0.7, 50, 1024, 0.7]);
      expect(q.body.messages).toBeUndefined();
      expect(q.body.response_format).toBeUndefined();
      const prompt = String(q.body.prompt);
      expect(prompt.startsWith('<human>: ')).toBe(true);
      expect(prompt.endsWith('\n<bot>: ')).toBe(true);
    }
    // The switch is recorded in run.json and shown on the simulation card.
    const config = readRunJson(out).config as { agents: Array<{ params: Record<string, unknown> }> };
    expect(config.agents.map((a) => a.params.transport)).toEqual(['completion', 'completion']);
    const loaded = await loadRunDir(out);
    if (!loaded.ok) throw new Error(loaded.error.message);
    expect(cardMarkdown(buildCard([loaded.run])).join('\n')).toContain('transport=completion');
  });
});
