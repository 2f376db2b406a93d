import { describe, expect, it } from 'vitest';
import type { Answerer } from './ask.js';
import { probeInBatches, ProbeBatchRefused } from './batch.js';
import { BUILTIN_PROBES } from './definitions.js';
import type { ProbeTarget } from './plan.js';

/** `probe --batch` sends one batch per model to one endpoint: a model reached on two endpoints is refused first. */
describe('probeInBatches', () => {
  it('refuses a model the run reached on more than one endpoint, before anything is uploaded', async () => {
    const target = (id: string) => ({ record: { episodeId: id }, seat: 'agent1', turn: 2 }) as unknown as ProbeTarget;
    const answerer = (baseURL: string): Answerer => ({
      label: 'openai:gpt-4o',
      ask: async () => ({ ok: true, answer: '' }),
      llm: { policy: { spec: 'openai:gpt-4o', params: {}, baseURL }, request: () => ({ messages: [] }) },
    });
    const byEpisode: Record<string, Answerer> = { e1: answerer('http://127.0.0.1:1/v1'), e2: answerer('http://127.0.0.1:2/v1') };
    const run = probeInBatches({
      runDir: '/nonexistent', probe: BUILTIN_PROBES['partner-goal']!, targets: [target('e1'), target('e2')],
      answererOf: (t) => byEpisode[t.record.episodeId]!, out: '/nonexistent/never.jsonl', pollMs: 1000, signal: new AbortController().signal, log: () => {},
    });
    await expect(run).rejects.toBeInstanceOf(ProbeBatchRefused);
    await expect(run).rejects.toThrow(/openai:gpt-4o answers on more than one endpoint in this run \(episode e2\)/);
  });
});
