import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runExperiment } from '../orchestrator/run/driver.js';
import { startFakeLlmServer } from '../testkit/fake-llm-server.js';
import { REAL_BODY_BYTES } from '../bench/floor-body.js';
import { floorSeatScript } from '../bench/floor-build.js';
import { BENCH_KEY_ENV, benchModel, benchPolicy } from '../bench/llm-replies.js';
import { steadyRun } from '../bench/pool-watch.js';
import { tempDir } from './helpers/processes.js';

/**
 * The floor seat (bench/floor-seat.ts, bench/floor.md) plays a real episode: the orchestrator's own pool
 * starts it (the CommonJS file the bench measures, bench/floor-build.ts) in place of the agent (RunProbes.workerEntry), it joins over its hand-written WebSocket, makes
 * one model call a turn with a body as long as the real seat's, and the episode is recorded as played.
 */
describe('floor seat', () => {
  const tmp = tempDir('floor-seat');
  const savedKey = process.env[BENCH_KEY_ENV];
  afterAll(() => {
    tmp.remove();
    if (savedKey === undefined) delete process.env[BENCH_KEY_ENV];
    else process.env[BENCH_KEY_ENV] = savedKey;
  });

  it('plays a four-turn episode against the real orchestrator, one model call a turn of the real length', async () => {
    process.env[BENCH_KEY_ENV] = 'floor-key';
    await using server = await startFakeLlmServer({ default: benchModel(0), requireKey: 'floor-key' });
    const config = steadyRun({ out: join(tmp.path, 'run'), total: 1, lanes: 1, turns: 4, agent: benchPolicy(server.openaiBaseURL), seatsPerProcess: 1 });
    const result = await runExperiment(config, { log: () => {}, hosting: 'local' }, { workerEntry: await floorSeatScript(), progressIntervalMs: 3_600_000 });

    expect(result.ran).toHaveLength(1);
    const [episode] = result.ran;
    expect(episode!.status).toBe('ok');
    expect(episode!.turns).toHaveLength(4);
    expect(episode!.turns.map((t) => (t as { action: { argument: string } }).action.argument)).toEqual(Array(4).fill('That is interesting; tell me a little more about how you see it.'));
    // Each seat in a process of its own (not this one), as the pool hosts Parley's agents.
    const pids = episode!.seats.map((s) => s.pid);
    expect(new Set(pids).size).toBe(2);
    expect(pids).not.toContain(process.pid);
    expect(pids.every((p) => typeof p === 'number')).toBe(true);
    // One request a turn, each with the key and the real seat's length at that turn.
    expect(server.requests.map((r) => Number(r.headers['content-length']))).toEqual(REAL_BODY_BYTES.slice(0, 4));
  });
});
