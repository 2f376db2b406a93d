import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Queue, QueueEvents, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveProtocol } from '../../orchestrator/run/index.js';
import { episodeId } from '../../orchestrator/run/plan.js';
import { EpisodeResult, jobIdOf, QUEUE_NAME, runSpecKey, type EpisodeJob, type RunSpec } from '../../queue/jobs.js';
import { builtinScenarios } from '../../scenarios/builtin.js';
import { startFakeLlmServer, type FakeLlmServer } from '../../testkit/fake-llm-server.js';
import { parley, tempDir, within, type CliProcess } from '../helpers/processes.js';
import { startRedis, type TestRedis } from '../helpers/redis.js';

/** Every path under `dir` (files and folders), relative to it. */
function walk(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const rel = join(prefix, e.name);
    return e.isDirectory() ? [rel, ...walk(join(dir, e.name), rel)] : [rel];
  });
}

/**
 * Issue 19, Contract 4: someone with access to Redis only plants jobs for a real `parley worker`. A job
 * whose episode id climbs out of the scratch directory writes nothing anywhere; a job naming a base URL
 * and key variable the worker was not started with is refused and no request leaves the worker. A
 * well-formed job planted the same way runs (so the refusals are the checks, not a broken harness).
 */
describe('parley worker refuses jobs it did not agree to (real Redis, real worker)', () => {
  const tmp = tempDir('queue-untrusted');
  let redis: TestRedis | undefined;
  let fake: FakeLlmServer | undefined;
  let worker: CliProcess | undefined;
  afterAll(async () => {
    worker?.kill();
    await worker?.exited;
    await redis?.stop();
    await fake?.close();
    tmp.remove();
  });

  it('Contract 4: no write outside the scratch directory, no request to a job-named endpoint', async () => {
    redis = await startRedis();
    fake = await startFakeLlmServer();
    const scenario = builtinScenarios()[0]!;
    const bots = Object.fromEntries(scenario.seats.map((s) => [s.seat, { spec: 'bot', params: {} }]));
    const runKey = 'planted-run';
    const spec: RunSpec = { v: 1, runKey, runId: 'planted', maxTurns: 20, turnDeadlineMs: 30_000, protocol: resolveProtocol({}, [scenario]), policies: [{ spec: 'bot', params: {} }], scenarios: [scenario] };
    const conn = new Redis(redis.url);
    await conn.set(runSpecKey(runKey), JSON.stringify(spec));
    const job = (id: string, policies: EpisodeJob['policies'], mode: EpisodeJob['mode'] = 'agents', repeat = 0): EpisodeJob => ({ runKey, episodeId: id, scenarioId: scenario.id, mode, repeat, policies });
    const good = episodeId({ scenarioId: scenario.id, pairId: scenario.pairId, mode: 'agents', specs: ['bot', 'bot'], repeat: 0 });
    const keyed = episodeId({ scenarioId: scenario.id, pairId: scenario.pairId, mode: 'agents', specs: ['openai:gpt-4'], repeat: 1 });
    const stealing = { spec: 'openai:gpt-4', params: {}, baseURL: fake.openaiBaseURL, apiKeyEnv: 'PARLEY_TEST_SECRET' };
    const planted = [
      job('../../x/escaped', bots),
      job(keyed, Object.fromEntries(scenario.seats.map((s) => [s.seat, stealing])), 'agents', 1),
      job(good, bots),
    ];
    const queue = new Queue(QUEUE_NAME, { connection: { url: redis.url } });
    const events = new QueueEvents(QUEUE_NAME, { connection: { url: redis.url } });
    await events.waitUntilReady();
    const jobs: Job[] = await queue.addBulk(planted.map((data) => ({ name: 'episode', data, opts: { jobId: jobIdOf(runKey, data.episodeId.replace(/\//g, '_')), attempts: 1 } })));

    const scratchParent = join(tmp.path, 'tmp');
    mkdirSync(scratchParent);
    worker = parley(['worker', '--queue', redis.url, '--concurrency', '1'], { env: { ...process.env, TMPDIR: scratchParent, PARLEY_TEST_SECRET: 'sk-stolen', ...fake.env() }, cwd: tmp.path });
    await within(worker.line(/^parley worker \d+ on /), 30_000, 'worker up', [worker]);

    const settle = async (j: Job) => {
      try {
        return { ok: true as const, value: await j.waitUntilFinished(events, 60_000) };
      } catch (err) {
        return { ok: false as const, reason: (err as Error).message };
      }
    };
    const outcomes = await within(Promise.all(jobs.map(settle)), 70_000, 'planted jobs settle', [worker]);
    const [escaped, keyedOut, goodOut] = [outcomes[0]!, outcomes[1]!, outcomes[2]!];
    expect(escaped).toMatchObject({ ok: false, reason: expect.stringContaining('queue/bad_job') });
    expect(keyedOut).toMatchObject({ ok: false, reason: expect.stringContaining('--allow-endpoint') });
    // The control: a well-formed job planted the same way runs to the end.
    expect(goodOut.ok, JSON.stringify(goodOut)).toBe(true);
    if (goodOut.ok) expect(EpisodeResult.parse(goodOut.value).record.status).toBe('ok');

    // Nothing named `escaped` anywhere the worker could reach by climbing, and no request left the worker.
    expect(walk(tmp.path).filter((p) => p.includes('escaped'))).toEqual([]);
    expect(fake.requests).toHaveLength(0);
    await Promise.allSettled([queue.close(), events.close()]);
    conn.disconnect();
  }, 120_000);
});
