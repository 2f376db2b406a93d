import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPolicy } from '../../agent-node/policies/registry.js';
import { playSeat } from '../../agent-node/seat-client.js';
import { ALL_ACTIONS, startFakeOrchestrator, welcomeBody } from '../../agent-node/testing/fake-orchestrator.js';
import { run as evalCommand } from '../../cli/commands/eval.js';
import { checkJudgeEndpoint } from '../../evaluator/judge-preflight.js';
import { clScenario, episode, mfScenario, writeRunDir } from '../../evaluator/testing/fixtures.js';
import { checkPolicySpec, createClient, estimateCost, LlmErrorCode, missingKeys, openAiBatchApi, registerProvider, type Provider } from '../../llm/index.js';
import { createOpenAiClient } from '../../llm/openai-client.js';
import { COMMON_SAMPLING_KEYS } from '../../llm/providers/common-sampling.js';
import { PolicyConfig } from '../../protocol/index.js';
import { startFakeLlmServer, type FakeLlmServer } from '../../testkit/fake-llm-server.js';

/**
 * Issue 34, Contract 2: a third provider is one registry entry, here in this one file — `acme`, a fake
 * that speaks the OpenAI wire format under its own name, key and URL variables, against the fake
 * OpenAI-compatible server on 127.0.0.1. An LLM seat, a live judge, a batch judge and the preflights run
 * through it; nothing is sent as `openai` and no OpenAI key or URL is read. An unregistered provider is
 * refused at every entry, never played as another provider.
 */
const acme: Provider = {
  name: 'acme',
  env: { key: 'ACME_API_KEY', baseURL: 'ACME_BASE_URL' },
  defaultBaseURL: 'https://api.acme.invalid/v1',
  baseURLAt: (origin) => `${origin.replace(/\/+$/, '')}/v1`,
  modelsURL: (baseURL) => `${baseURL.replace(/\/+$/, '')}/models`,
  structuredOutput: 'json_schema',
  samplingKeys: [...COMMON_SAMPLING_KEYS, 'seed'],
  completionTransport: false,
  paperReformat: 'own',
  client: (s, deps) => createOpenAiClient({ name: 'acme', ...s }, deps),
  batchApi: (s) => openAiBatchApi(s),
  prices: { 'chat-*': { prompt: 1, completion: 2 } },
  tokenEncoding: () => null,
};

const KEY = 'acme-secret';
let server: FakeLlmServer;
let unregister: () => void;
const dirs: string[] = [];

beforeAll(async () => {
  server = await startFakeLlmServer();
  unregister = registerProvider(acme);
  vi.stubEnv('ACME_API_KEY', KEY);
  vi.stubEnv('ACME_BASE_URL', `${server.url}/v1`);
  // Anything that fell back to OpenAI's (or Mistral's) variables would fail: they name nothing.
  for (const v of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'MISTRAL_API_KEY', 'MISTRAL_BASE_URL']) vi.stubEnv(v, '');
});

afterAll(async () => {
  unregister?.();
  vi.unstubAllEnvs();
  await server?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const chatRequests = () => server.requests.filter((r) => r.path === '/v1/chat/completions');

describe('a third provider registered in one file', () => {
  it('plays an LLM seat over a real socket, its calls sent with its own key and recorded under its name', async () => {
    const orchestrator = await startFakeOrchestrator();
    const before = chatRequests().length;
    const policy = await createPolicy(PolicyConfig.parse({ spec: 'acme:chat-1', params: { seed: 7 } }));
    const session = playSeat({ url: orchestrator.url, token: 'tok-acme', policy, reconnect: { baseDelayMs: 20, maxDelayMs: 50 } });
    try {
      const conn = await orchestrator.connection(0);
      await conn.next('seat.join');
      conn.send(welcomeBody());
      conn.send({ type: 'turn.request', turn: 0, actions: [...ALL_ACTIONS], deadlineMs: 20_000 });
      const act = await conn.next('turn.act', 20_000);
      expect(act.meta).toMatchObject({ policy: 'acme:chat-1', provider: 'acme', model: 'chat-1' });
      const sent = chatRequests().slice(before);
      expect(sent.length).toBeGreaterThan(0);
      expect(sent[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(sent[0]!.body).toMatchObject({ model: 'chat-1', seed: 7, response_format: { type: 'json_schema' } });
    } finally {
      session.close('test over');
      await orchestrator.close();
    }
  });

  it('judges a run live and through its batch interface, and prices it from its own table', async () => {
    const mf = mfScenario();
    const cl = clScenario();
    const records = [
      episode({ scenario: mf, moves: [['a', 'speak', 'Do you know Jane Doe?'], ['b', 'action', 'select Jane Doe']] }),
      episode({ scenario: cl, moves: [['a', 'speak', 'Would you take $70?'], ['b', 'speak', 'Deal.']] }),
    ];
    for (const mode of ['live', 'batch'] as const) {
      const dir = await writeRunDir([mf, cl], records);
      dirs.push(dir);
      const uploadsBefore = server.fineTuning.files.filter((f) => f.purpose === 'batch').length;
      const code = await evalCommand([dir, '--judge', 'acme:chat-judge', '--judge-view', 'parley', ...(mode === 'batch' ? ['--batch', '--batch-poll', '0.05'] : [])]);
      expect(code, mode).toBe(0);
      const written = readFileSync(path.join(dir, 'episodes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      for (const r of written) {
        expect(r.evaluation.judge, mode).toMatchObject({ judge: { provider: 'acme', model: 'chat-judge' } });
        expect(Object.values(r.evaluation.judge.seats as Record<string, { ok: boolean }>).every((s) => s.ok), mode).toBe(true);
      }
      expect(server.fineTuning.files.filter((f) => f.purpose === 'batch').length - uploadsBefore, mode).toBe(mode === 'batch' ? 1 : 0);
    }
    expect(server.requests.every((r) => r.path.endsWith('/models') || r.headers.authorization === `Bearer ${KEY}` || r.viaBatch)).toBe(true);
    expect(estimateCost('acme', 'chat-judge', { prompt: 1_000_000, completion: 1_000_000, cached: 0 })).toBe(3);
  });

  it('has its own key and endpoint checked before a run or a judgement', async () => {
    expect(missingKeys([PolicyConfig.parse({ spec: 'acme:chat-1' })], {})).toEqual([{ spec: 'acme:chat-1', variable: 'ACME_API_KEY' }]);
    expect(missingKeys([PolicyConfig.parse({ spec: 'acme:chat-1' })], { ACME_API_KEY: 'k' })).toEqual([]);
    expect(await checkJudgeEndpoint('acme:chat-judge')).toBeNull();
    expect(await checkJudgeEndpoint('acme:chat-judge', { baseURL: 'http://127.0.0.1:9/v1', timeoutMs: 2_000 })).toMatch(/cannot reach http:\/\/127\.0\.0\.1:9\/v1.*ACME_BASE_URL/);
  });
});

describe('an unregistered provider', () => {
  it('is refused at every entry, never played as another provider', async () => {
    const r = checkPolicySpec('zeta:chat-1');
    expect(r).toMatchObject({ ok: false, code: 'policy/unknown_spec' });
    if (!r.ok) expect(r.message).toMatch(/unknown provider 'zeta'.*acme:<model>/);
    await expect(createPolicy(PolicyConfig.parse({ spec: 'zeta:chat-1' }))).rejects.toMatchObject({ code: expect.stringMatching(/unknown/) });
    expect(() => createClient({ spec: 'zeta:chat-1' })).toThrow(expect.objectContaining({ code: LlmErrorCode.BadSpec }));
    expect(() => missingKeys([PolicyConfig.parse({ spec: 'zeta:chat-1' })], {})).toThrow(/unknown LLM provider 'zeta'/);
    const dir = await writeRunDir([mfScenario()], [episode({ scenario: mfScenario() })]);
    dirs.push(dir);
    const requests = server.requests.length;
    await expect(evalCommand([dir, '--judge', 'zeta:chat-1', '--dry-run'])).rejects.toThrow(/--judge zeta:chat-1: .*unknown provider 'zeta'/);
    await expect(evalCommand([dir, '--judge', 'zeta:chat-1'])).rejects.toThrow(/unknown provider 'zeta'/);
    expect(server.requests.length).toBe(requests);
  });

  it('is gone once unregistered', () => {
    const off = registerProvider({ ...acme, name: 'acme-two' });
    expect(checkPolicySpec('acme-two:x').ok).toBe(true);
    off();
    expect(checkPolicySpec('acme-two:x').ok).toBe(false);
    expect(() => registerProvider({ ...acme, name: 'replay' })).toThrow(TypeError);
    expect(() => registerProvider(acme)).toThrow(/registered already/);
  });
});
