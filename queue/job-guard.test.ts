import { describe, expect, it } from 'vitest';
import { checkEpisodeJob, checkJobSeats, checkPolicy, normaliseEndpoint, type WorkerTrust } from './job-guard.js';
import type { EpisodeJob } from './jobs.js';

const none: WorkerTrust = { endpoints: [], keyEnvs: [] };
const ep = 'builtin-mf-01.agents.r0.3159287cb9b4';
const job = (over: Partial<EpisodeJob> = {}): EpisodeJob => ({
  runKey: 'run-abc_12',
  episodeId: ep,
  scenarioId: 'builtin-mf-01',
  mode: 'agents',
  repeat: 0,
  policies: { a: { spec: 'bot', params: {} }, b: { spec: 'openai:gpt-4', params: {} } },
  ...over,
});

describe('a worker checks each job against the grammar the coordinator writes', () => {
  it('accepts a job as the coordinator writes it', () => {
    expect(checkEpisodeJob(job(), none)).toEqual({ ok: true });
  });

  it.each(['../../x/escaped', `${ep}/..`, '/etc/passwd', `../${ep}`, 'a'.repeat(300), ''])('refuses the episode id %j', (episodeId) => {
    const c = checkEpisodeJob(job({ episodeId }), none);
    expect(c).toMatchObject({ ok: false, code: 'queue/bad_job' });
  });

  it('refuses a job that lacks a policy for a seat, or names one the episode does not have (issue 35)', () => {
    expect(checkJobSeats(job(), ['a', 'b'])).toEqual({ ok: true });
    expect(checkJobSeats(job(), ['a', 'b', 'c'])).toMatchObject({ ok: false, code: 'queue/bad_job', message: expect.stringMatching(/no policy for seat c/) });
    expect(checkJobSeats(job(), ['a'])).toMatchObject({ ok: false, message: expect.stringMatching(/a policy for seat "b" the episode does not have/) });
    expect(checkEpisodeJob(job({ policies: JSON.parse('{"__proto__":{"spec":"bot","params":{}}}') }), none).ok).toBe(false);
    expect(checkEpisodeJob(job({ policies: { constructor: { spec: 'bot', params: {} } } }), none).ok).toBe(false);
  });

  it('refuses an id whose mode or repeat disagrees with the job', () => {
    expect(checkEpisodeJob(job({ mode: 'script' }), none).ok).toBe(false);
    expect(checkEpisodeJob(job({ repeat: 3 }), none).ok).toBe(false);
  });

  it('refuses policies outside the closed set: replay, human, unknown providers, path fields', () => {
    for (const spec of ['replay:/home/x/run', 'human', 'curl:http://x', 'bot:../x']) {
      expect(checkPolicy({ spec, params: {} }, none, 'x').ok, spec).toBe(false);
    }
    for (const field of ['cassetteDir', 'replayDir', 'promptDir'] as const) {
      expect(checkPolicy({ spec: 'bot', params: {}, [field]: '/tmp/x' }, none, 'x').ok, field).toBe(false);
    }
  });

  it('takes a base URL or a key variable only when the worker allows that very one', () => {
    const hostile = { spec: 'openai:gpt-4', params: {}, baseURL: 'http://127.0.0.1:9/v1', apiKeyEnv: 'OPENAI_API_KEY' };
    expect(checkEpisodeJob(job({ policies: { a: hostile } }), none)).toMatchObject({ ok: false, message: expect.stringContaining('--allow-endpoint') });
    const urlOnly: WorkerTrust = { endpoints: [normaliseEndpoint('http://127.0.0.1:9/v1/')!], keyEnvs: [] };
    expect(checkEpisodeJob(job({ policies: { a: hostile } }), urlOnly)).toMatchObject({ ok: false, message: expect.stringContaining('--allow-key-env') });
    const both: WorkerTrust = { ...urlOnly, keyEnvs: ['OPENAI_API_KEY'] };
    expect(checkEpisodeJob(job({ policies: { a: hostile } }), both)).toEqual({ ok: true });
    expect(checkEpisodeJob(job({ policies: { a: { ...hostile, baseURL: 'http://127.0.0.1:10/v1' } } }), both).ok).toBe(false);
  });

  it('normalises allowed endpoints and refuses ones carrying credentials or other schemes', () => {
    expect(normaliseEndpoint('http://LOCALHOST:8080/v1/')).toBe('http://localhost:8080/v1');
    expect(normaliseEndpoint('http://u:p@h/v1')).toBeNull();
    expect(normaliseEndpoint('file:///etc')).toBeNull();
    expect(normaliseEndpoint('not a url')).toBeNull();
  });
});

describe("the coordinator's run config maps onto worker flags", () => {
  it('names each endpoint and key variable once', async () => {
    const { workerFlagsFor } = await import('./job-guard.js');
    const p = { spec: 'openai:m', params: {}, baseURL: 'http://127.0.0.1:8/v1/', apiKeyEnv: 'MY_KEY' };
    expect(workerFlagsFor([p, p, { spec: 'bot', params: {} }])).toEqual(['--allow-endpoint http://127.0.0.1:8/v1', '--allow-key-env MY_KEY']);
  });
});
