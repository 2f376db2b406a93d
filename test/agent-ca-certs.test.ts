import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RunConfig } from '../orchestrator/run-config.js';
import { runExperiment } from '../orchestrator/run/driver.js';
import { WorkerPool } from '../orchestrator/supervisor/worker-pool.js';
import { startFakeLlmServer, type FakeLlmServer } from '../testkit/fake-llm-server.js';
import { tempDir } from './helpers/processes.js';

/**
 * Agent processes start without NODE_EXTRA_CA_CERTS only when none of their policies can open TLS
 * (issue 44: Node parses the file at every start, ~60–100 ms of CPU with a system bundle). Both
 * directions, on real processes: the variable is read from each agent process's /proc/<pid>/environ.
 * The suite empties the variable for its processes (vitest.config.ts), so these tests set it (an empty
 * file: Node takes it without a warning).
 */
const CA = 'NODE_EXTRA_CA_CERTS';

function environOf(pid: number): Map<string, string> {
  const entries = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  return new Map(entries.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));
}

describe('NODE_EXTRA_CA_CERTS in agent processes', () => {
  const tmp = tempDir('ca-certs');
  const certs = join(tmp.path, 'extra.pem');
  const saved = { ca: process.env[CA], key: process.env.PARLEY_CA_TEST_KEY };
  let server: FakeLlmServer;
  beforeAll(async () => {
    writeFileSync(certs, '');
    process.env[CA] = certs;
    process.env.PARLEY_CA_TEST_KEY = 'test';
    server = await startFakeLlmServer();
  });
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  afterAll(async () => {
    await server.close();
    for (const [key, value] of [[CA, saved.ca], ['PARLEY_CA_TEST_KEY', saved.key]] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    tmp.remove();
  });

  it('a pool keeps the variable by default and drops it when tlsFree', async () => {
    for (const tlsFree of [false, true]) {
      const pool = new WorkerPool({ size: 1, tlsFree });
      cleanups.push(() => pool.close());
      await pool.start();
      const env = environOf(pool.readyPids[0]!);
      expect(env.get(CA)).toBe(tlsFree ? undefined : certs);
      // Only the certificates go: the rest of the environment is passed on.
      expect(env.get('PARLEY_CA_TEST_KEY')).toBe('test');
    }
  });

  it('a tlsFree pool refuses a policy that may open TLS rather than play it without its certificates', async () => {
    const pool = new WorkerPool({ size: 1, tlsFree: true });
    cleanups.push(() => pool.close());
    await expect(pool.host({ episodeId: 'e', url: 'ws://127.0.0.1:1/agent', token: 't', policy: { spec: 'openai:gpt-4o', params: {} } })).rejects.toThrow(/may open TLS/);
  });

  /** Runs one episode with these agents and returns each agent process's value of the variable. */
  async function poolCa(agents: RunConfig['agents'], out: string): Promise<{ values: Array<string | undefined>; ok: boolean }> {
    let values: Array<string | undefined> = [];
    const config = RunConfig.parse({ scenarios: 'builtin', modes: ['agents'], out: join(tmp.path, out), limit: 1, maxTurns: 2, agents });
    const result = await runExperiment(config, { log: () => {}, hosting: 'local' }, { progressIntervalMs: 3_600_000, poolStarted: (pool) => (values = pool.pids.map((pid) => environOf(pid).get(CA))) });
    return { values, ok: result.ran.length === 1 && result.ran[0]!.status === 'ok' };
  }

  it('a run of bots and an LLM on a plain http:// server: its agent processes start without it', async () => {
    const { values, ok } = await poolCa([{ spec: 'bot:chatter', params: {} }, { spec: 'openai:gpt-3.5-turbo', baseURL: server.openaiBaseURL, apiKeyEnv: 'PARLEY_CA_TEST_KEY', params: {} }], 'http');
    expect(ok).toBe(true);
    expect(values.length).toBeGreaterThan(0);
    for (const v of values) expect(v).toBeUndefined();
  });

  it('a run with a seat that may open TLS (an https:// endpoint): every agent process keeps it', async () => {
    // The endpoint is never reached: the run is stopped once its pool has started.
    const stop = new AbortController();
    let values: Array<string | undefined> = [];
    const config = RunConfig.parse({
      scenarios: 'builtin',
      modes: ['agents'],
      out: join(tmp.path, 'https'),
      limit: 1,
      maxTurns: 2,
      agents: [{ spec: 'bot:chatter', params: {} }, { spec: 'openai:gpt-3.5-turbo', baseURL: 'https://127.0.0.1:9/v1', apiKeyEnv: 'PARLEY_CA_TEST_KEY', params: {} }],
    });
    await runExperiment(config, { log: () => {}, hosting: 'local', signal: stop.signal }, {
      progressIntervalMs: 3_600_000,
      poolStarted: (pool) => {
        values = pool.pids.map((pid) => environOf(pid).get(CA));
        stop.abort();
      },
    });
    expect(values.length).toBeGreaterThan(0);
    for (const v of values) expect(v).toBe(certs);
  });
});
