import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RunConfig } from '../orchestrator/run-config.js';
import { runExperiment } from '../orchestrator/run/driver.js';
import { BOT_PROCESS_NODE_FLAGS } from '../orchestrator/supervisor/bot-process-flags.js';
import { ONE_SEAT_PROCESS_NODE_FLAGS } from '../orchestrator/supervisor/one-seat-process-flags.js';
import { startFakeLlmServer } from '../testkit/fake-llm-server.js';
import { tempDir } from './helpers/processes.js';

/** The node flags each live agent process of a run was started with (from /proc, Linux). */
function flagsOfPool(pids: readonly number[]): string[][] {
  return pids.map((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((a) => a.startsWith('--')));
}

/**
 * Lean agent processes for bot-only runs (issue 27): a run whose every seat is a bot, one seat per
 * process, starts its agent processes without the optimising compilers (less memory); a multiplexed run
 * or any run with an LLM seat keeps Node's defaults, so its processes keep their speed and WebAssembly (fetch, hence the SDKs, needs it).
 */
describe('node flags of agent processes', () => {
  const tmp = tempDir('bot-flags');
  afterAll(() => tmp.remove());

  async function poolFlags(agents: RunConfig['agents'], out: string, pool?: RunConfig['pool']): Promise<{ flags: string[][]; ok: boolean }> {
    let flags: string[][] = [];
    const config = RunConfig.parse({ scenarios: 'builtin', modes: ['agents'], out: join(tmp.path, out), limit: 1, maxTurns: 2, agents, ...(pool ? { pool } : {}) });
    const result = await runExperiment(config, { log: () => {}, hosting: 'local' }, { progressIntervalMs: 3_600_000, poolStarted: (pool) => (flags = flagsOfPool(pool.pids)) });
    return { flags, ok: result.ran.length === 1 && result.ran[0]!.status === 'ok' };
  }

  it('a bot-only run: every agent process carries the bot flags', async () => {
    const { flags, ok } = await poolFlags([{ spec: 'bot:chatter', params: {} }], 'bots');
    expect(ok).toBe(true);
    expect(flags.length).toBeGreaterThan(0);
    for (const f of flags) expect(f).toEqual(expect.arrayContaining([...BOT_PROCESS_NODE_FLAGS]));
  });

  it('a multiplexed bot-only run: none (a process playing dozens of seats keeps its optimising compilers)', async () => {
    const { flags, ok } = await poolFlags([{ spec: 'bot:chatter', params: {} }], 'bots-mux', { multiplex: true, seatsPerProcess: 4 });
    expect(ok).toBe(true);
    expect(flags.length).toBeGreaterThan(0);
    for (const f of flags) for (const flag of [...BOT_PROCESS_NODE_FLAGS, ...ONE_SEAT_PROCESS_NODE_FLAGS]) expect(f).not.toContain(flag);
  });

  it('a run with an LLM seat, one seat a process: no agent process carries them; every one carries the one-seat flags', async () => {
    await using server = await startFakeLlmServer();
    const saved = process.env.PARLEY_FLAGS_TEST_KEY;
    process.env.PARLEY_FLAGS_TEST_KEY = 'test';
    try {
      const { flags, ok } = await poolFlags([{ spec: 'bot:chatter', params: {} }, { spec: 'openai:gpt-3.5-turbo', baseURL: server.openaiBaseURL, apiKeyEnv: 'PARLEY_FLAGS_TEST_KEY', params: {} }], 'llm');
      expect(ok).toBe(true);
      expect(flags.length).toBeGreaterThan(0);
      for (const f of flags) for (const flag of BOT_PROCESS_NODE_FLAGS) expect(f).not.toContain(flag);
      for (const f of flags) expect(f).toEqual(expect.arrayContaining([...ONE_SEAT_PROCESS_NODE_FLAGS]));
      // --predictable would seed every process's Math.random and string hashes alike: each gets its own seed.
      const seeds = flags.map((f) => f.find((a) => a.startsWith('--random-seed=')));
      expect(seeds.every((s) => s !== undefined)).toBe(true);
      expect(new Set(seeds).size).toBe(seeds.length);
    } finally {
      if (saved === undefined) delete process.env.PARLEY_FLAGS_TEST_KEY;
      else process.env.PARLEY_FLAGS_TEST_KEY = saved;
    }
  });
});
