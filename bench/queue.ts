/**
 * The queue case of `npm run bench` (issue 15): latency-bound runs through `parley run --queue` with
 * 1, 2 and 4 `parley worker` processes on this machine, a real redis-server, and the fake LLM server
 * answering every move after a fixed delay. Each worker runs `lanes` episodes at a time on a multiplexed
 * pool (`lanes` seats per agent process: a few processes per worker, so that 4 workers' pools start on
 * a 2-core machine; seats of one episode still never share a process); the ideal is
 * workers × lanes episodes every (turns × delay). Episodes have equal length and finish in waves, so
 * the rate is measured from the end of the first wave (every worker's agent processes have played LLM
 * turns) to the last record: (episodes − first wave) ÷ that time. The coordinator runs here, in
 * process, and timestamps each record as it collects it from the queue.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunConfig } from '../orchestrator/run-config.js';
import { runQueued } from '../queue/coordinator.js';
import { startFakeLlmServer } from '../testkit/fake-llm-server.js';
import { parley, type CliProcess } from '../testkit/processes.js';
import { startRedis } from '../testkit/redis.js';
import { isEpisodeLine } from './window.js';
import { BENCH_KEY_ENV, benchModel, benchPolicy } from './llm-replies.js';
import { round } from './stats.js';

export interface QueueFigures {
  workers: number;
  lanesPerWorker: number;
  turns: number;
  modelDelayMs: number;
  episodes: number;
  failed: number;
  idealEpisodesPerMinute: number;
  episodesPerMinute: number;
  efficiency: number;
  /** From the coordinator's enqueue to its last record (workers' agent pools starting included). */
  wholeRunSeconds: number;
}

/** One queued run per worker count; `say` reports progress on stderr. */
export async function queueCases(o: { workerCounts: number[]; lanes: number; turns: number; delayMs: number; waves: number }, say: (l: string) => void): Promise<QueueFigures[]> {
  await using redis = await startRedis();
  await using llm = await startFakeLlmServer({ default: benchModel(o.delayMs), keepRequests: false });
  const figures: QueueFigures[] = [];
  for (const workers of o.workerCounts) {
    say(`queue: ${workers} worker process(es) × ${o.lanes} episodes, model answers after ${o.delayMs} ms`);
    const out = mkdtempSync(join(tmpdir(), 'parley-bench-queue-'));
    const env = { ...process.env, [BENCH_KEY_ENV]: 'bench' };
    // Workers take a base URL and a key variable from a job only when told to (issue 19): the bench's own.
    const trust = ['--allow-endpoint', llm.openaiBaseURL, '--allow-key-env', BENCH_KEY_ENV];
    const procs: CliProcess[] = Array.from({ length: workers }, () => parley(['worker', '--queue', redis.url, '--concurrency', String(o.lanes), '--multiplex', '--seats-per-process', String(o.lanes), ...trust], { env }));
    try {
      await Promise.all(procs.map((p) => p.line(/^parley worker \d+ on /)));
      const lanes = workers * o.lanes;
      const total = lanes * o.waves;
      const config = RunConfig.parse({
        scenarios: 'builtin', modes: ['agents'], out, repeats: Math.ceil(total / 20), limit: total, maxTurns: o.turns, agents: [benchPolicy(llm.openaiBaseURL)],
      });
      const stamps: number[] = [];
      const t0 = performance.now();
      const result = await runQueued(config, { url: redis.url, shown: redis.url, log: (l) => void (isEpisodeLine(l) ? stamps.push(performance.now()) : say(`  ${l}`)), progressIntervalMs: 3_600_000, sweepMs: 1_000 });
      const end = performance.now();
      if (result.ran.length < total) {
        for (const p of procs) say(`  worker ${p.child.pid}: ${[...p.stdout, ...p.stderr].filter((l) => !l.startsWith('done ')).slice(-6).join(' | ')}`);
      }
      const idealPerMin = (lanes / ((o.turns * o.delayMs) / 1000)) * 60;
      const from = stamps[lanes - 1]!;
      const perMin = ((stamps.length - lanes) / (stamps.at(-1)! - from)) * 60_000;
      figures.push({
        workers,
        lanesPerWorker: o.lanes,
        turns: o.turns,
        modelDelayMs: o.delayMs,
        episodes: result.ran.length,
        failed: result.ran.filter((r) => r.status !== 'ok' || r.turns.length !== o.turns).length,
        idealEpisodesPerMinute: round(idealPerMin, 1),
        episodesPerMinute: round(perMin, 1),
        efficiency: round(perMin / idealPerMin, 3),
        wholeRunSeconds: round((end - t0) / 1000, 1),
      });
    } finally {
      for (const p of procs) p.child.kill('SIGTERM');
      await Promise.all(procs.map((p) => p.exited));
      rmSync(out, { recursive: true, force: true });
    }
  }
  return figures;
}
