import { describe, expect, it } from 'vitest';
import { buildRunConfig } from './plan/run-config.js';
import { parseExperiment } from './experiment.js';
import { applyRateLimits } from './rate-limits.js';

describe('rpm / tpm for LLM seats', () => {
  it('sets the limits on LLM policies only; a seat’s own value wins over the file, flags win over both', () => {
    const input = { agents: [{ spec: 'openai:gpt-4', params: { rpm: 5 } }, { spec: 'bot' }], scriptWriter: { spec: 'mistral:m' } };
    const file = applyRateLimits(input, { rpm: 60, tpm: 1000 }, false);
    expect(file.agents).toEqual([{ spec: 'openai:gpt-4', params: { rpm: 5, tpm: 1000 } }, { spec: 'bot' }]);
    expect(file.scriptWriter).toEqual({ spec: 'mistral:m', params: { rpm: 60, tpm: 1000 } });
    const flags = applyRateLimits(file, { rpm: 30 }, true);
    expect(flags.agents![0]).toEqual({ spec: 'openai:gpt-4', params: { rpm: 30, tpm: 1000 } });
  });
  it('--rpm/--tpm and the experiment file’s rpm/tpm reach the run config', () => {
    const built = buildRunConfig({ out: 'x', agent1: 'openai:gpt-4', rpm: 60, tpm: 90000 });
    expect(built.ok && built.config.agents[0]!.params).toEqual({ rpm: 60, tpm: 90000 });
    expect(buildRunConfig({ out: 'x', rpm: -1 })).toMatchObject({ ok: false, message: expect.stringContaining('--rpm') });
    const exp = parseExperiment('agent1: openai:gpt-4\nrpm: 100\n', 'e.yaml');
    expect(exp).toMatchObject({ ok: true, limits: { rpm: 100 } });
    expect(parseExperiment('rpm: -3\n', 'e.yaml')).toMatchObject({ ok: false, message: expect.stringContaining('e.yaml:1: rpm') });
  });
  it('never invents seat policies (a replay keeps the recorded run\'s policies when --rpm is given)', () => {
    expect(applyRateLimits({ replay: 'runs/r' }, { rpm: 60 }, true).agents).toBeUndefined();
    expect(applyRateLimits({ agents: [{ spec: 'bot' }] }, { rpm: 60 }, true).agents).toEqual([{ spec: 'bot' }]);
  });
});
