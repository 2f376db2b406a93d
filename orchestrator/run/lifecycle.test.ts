import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EpisodeRecord } from '../../protocol/index.js';
import { readEpisodes, readRunJson, RunPaths, type RunJson } from '../../run-dir/index.js';
import { tempDir } from '../../test/helpers/processes.js';
import type { EpisodePlan } from '../episode-plan.js';
import { RunConfig } from '../run-config.js';
import { MAX_DRAWS } from '../../simulation/index.js';
import { runLifecycle, type RunExecutor } from './lifecycle.js';

/** A finished record of a plan, as an executor hands it back (no seat played: the lifecycle never looks). */
const recordOf = (p: EpisodePlan, runId: string): EpisodeRecord => ({
  episodeId: p.episodeId, runId, scenarioId: p.scenario.id, pairId: 'p', repeat: p.repeat, mode: p.mode, seats: [], turns: [],
  termination: { reason: 'max_turns' }, outcome: { kind: 'open', success: null }, errors: [], status: 'ok', startedAt: '2026-01-01T00:00:00Z', durationMs: 1,
  ...(p.draw ? { draw: p.draw } : {}),
});

/** An in-process executor: plays `playing` of the pending episodes (all by default), then maybe fails. */
function fakeExecutor(hosting: 'local' | 'queue', o: { playing?: number; fail?: Error } = {}): RunExecutor<{ handed: number }> & { seen: EpisodePlan[][] } {
  const seen: EpisodePlan[][] = [];
  return {
    seen,
    hosting,
    command: 'run',
    ...(hosting === 'queue' ? { queueField: (previous, runId) => ({ url: 'redis://x', runKey: previous?.queue?.runKey ?? `${runId}-k${seen.length}`, queue: 'q' }) } : {}),
    async execute(run) {
      seen.push([...run.pending]);
      for (const p of run.pending.slice(0, o.playing ?? run.pending.length)) run.record(recordOf(p, run.manifest.runId));
      if (o.fail) throw o.fail;
      return { handed: run.pending.length };
    },
  };
}

describe('runLifecycle: one run, whichever executor plays it', () => {
  const dirs: Array<{ path: string; remove(): void }> = [];
  afterEach(() => dirs.splice(0).forEach((d) => d.remove()));
  const config = (extra: Record<string, unknown> = {}) => {
    const d = tempDir('lifecycle');
    dirs.push(d);
    return RunConfig.parse({ scenarios: 'builtin', out: join(d.path, 'run'), modes: ['agents'], limit: 3, ...extra });
  };
  const quiet = { log: () => {} };

  it('records what the executor returns, ends run.json with the stats, and a rerun has nothing left', async () => {
    const input = config();
    const first = await runLifecycle(input, fakeExecutor('local'), quiet);
    expect(first.planned).toBeGreaterThan(0);
    expect(first.ran).toHaveLength(first.planned);
    expect(first.handed).toBe(first.planned);
    const paths = new RunPaths(first.dir);
    expect(readEpisodes(paths).rows).toHaveLength(first.planned);
    const run = readRunJson(paths);
    expect(run.ok && run.run?.hosting).toBe('local');
    expect(run.ok && run.run?.endedAt).toEqual(expect.any(String));
    expect(run.ok && run.run?.stats?.episodes.total).toBe(first.planned);
    const again = fakeExecutor('local');
    const second = await runLifecycle(input, again, quiet);
    expect(again.seen).toEqual([[]]);
    expect(second.skipped).toBe(first.planned);
    const rerun = readRunJson(paths);
    expect(rerun.ok && rerun.run?.history).toHaveLength(2);
  });

  it('settings the executor does not apply are recorded under notApplied, not in config or history', async () => {
    const input = config({ concurrency: 8, pool: { multiplex: true, seatsPerProcess: 3 } });
    const done = await runLifecycle(input, { ...fakeExecutor('queue'), notApplied: ['concurrency', 'pool'] }, quiet);
    const read = readRunJson(new RunPaths(done.dir));
    const run = read.ok ? read.run : undefined;
    expect(run?.notApplied).toEqual({ concurrency: 8, pool: { multiplex: true, seatsPerProcess: 3 } });
    expect(run?.config).not.toHaveProperty('concurrency');
    expect(run?.config).not.toHaveProperty('pool');
    expect(run?.history?.[0]?.config).not.toHaveProperty('concurrency');
    // An executor that applies everything records the configuration whole, and no notApplied.
    const local = await runLifecycle(config({ concurrency: 8 }), fakeExecutor('local'), quiet);
    const whole = readRunJson(new RunPaths(local.dir));
    expect(whole.ok && whole.run?.config).toMatchObject({ concurrency: 8 });
    expect(whole.ok && whole.run).not.toHaveProperty('notApplied');
  });

  it('--extend of a queued run: how it runs is this invocation\'s (operational), never the defaults read back from the queued config', async () => {
    const input = config({ concurrency: 8, pool: { multiplex: true, seatsPerProcess: 3 } });
    const queued = await runLifecycle(input, { ...fakeExecutor('queue'), notApplied: ['concurrency', 'pool'] }, quiet);
    // Extended locally with other pool settings: accepted (they do not define the experiment), and recorded as applied.
    const more = RunConfig.parse({ ...input, limit: 4, concurrency: 2, pool: { multiplex: false, seatsPerProcess: 1 } });
    const local = await runLifecycle(more, fakeExecutor('local'), { ...quiet, extend: true });
    expect(local.ran).toHaveLength(1);
    const read = readRunJson(new RunPaths(queued.dir));
    const run = read.ok ? read.run : undefined;
    expect(run?.config).toMatchObject({ concurrency: 2, pool: { multiplex: false, seatsPerProcess: 1 }, limit: 4 });
    expect(run).not.toHaveProperty('notApplied');
    expect(run?.history?.map((h) => h.changed)).toEqual([[], ['limit']]);
  });

  it("hosting 'queue' is a run.json the schema accepts, and a rerun keeps the executor's queue field", async () => {
    const input = config();
    const first = await runLifecycle(input, fakeExecutor('queue', { playing: 1 }), quiet);
    const paths = new RunPaths(first.dir);
    const before = readRunJson(paths);
    expect(before.ok && before.run?.hosting).toBe('queue');
    const runKey = before.ok ? before.run?.queue?.runKey : undefined;
    expect(runKey).toMatch(/-k0$/);
    const again = fakeExecutor('queue');
    await runLifecycle(input, again, quiet);
    expect(again.seen[0]).toHaveLength(first.planned - 1);
    const after = readRunJson(paths);
    expect(after.ok && after.run?.queue?.runKey).toBe(runKey);
  });

  it('the run key survives a local invocation between two queued ones (a rerun with --queue finds its jobs)', async () => {
    const input = config();
    let keys = 0;
    const queued = (playing: number) => ({ ...fakeExecutor('queue', { playing }), queueField: (previous: RunJson | null, runId: string) => ({ url: 'redis://x', runKey: previous?.queue?.runKey ?? `${runId}-new${keys++}`, queue: 'q' }) });
    const first = await runLifecycle(input, queued(1), quiet);
    const paths = new RunPaths(first.dir);
    const key = (() => { const r = readRunJson(paths); return r.ok ? r.run?.queue?.runKey : undefined; })();
    expect(key).toMatch(/-new0$/);
    const lines: string[] = [];
    await runLifecycle(input, fakeExecutor('local', { playing: 1 }), { log: (l) => lines.push(l) });
    const local = readRunJson(paths);
    expect(local.ok && local.run?.hosting).toBe('local');
    expect(local.ok && local.run?.queue?.runKey).toBe(key);
    // The local invocation says that the queue may still hold the earlier invocation's jobs.
    expect(lines.some((l) => l.includes(`run key ${key}`))).toBe(true);
    await runLifecycle(input, queued(0), quiet);
    const again = readRunJson(paths);
    expect(again.ok && again.run?.queue?.runKey).toBe(key);
  });

  it('saveManifest: what an executor learnt mid-run (queue.workers) is in run.json when it is killed before the end', async () => {
    const input = config();
    const worker = { host: 'h', pid: 7, concurrency: 4, pool: { multiplex: false, seatsPerProcess: 1 } };
    const executor: RunExecutor = {
      ...fakeExecutor('queue'),
      async execute(run) {
        (run.manifest.queue!.workers ??= []).push(worker);
        run.saveManifest();
        run.record(recordOf(run.pending[0]!, run.manifest.runId));
        throw new Error('killed');
      },
    };
    await expect(runLifecycle(input, executor, quiet)).rejects.toThrow('killed');
    const run = readRunJson(new RunPaths(input.out));
    expect(run.ok && run.run?.endedAt).toBeNull();
    expect(run.ok && run.run?.queue?.workers).toEqual([worker]);
  });

  for (const hosting of ['local', 'queue'] as const) {
    it(`${hosting}: nothing ran in a new directory → no run.json and no scenarios.jsonl are left`, async () => {
      const input = config();
      const failure = new Error('cannot reach the seats');
      await expect(runLifecycle(input, fakeExecutor(hosting, { playing: 0, fail: failure }), quiet)).rejects.toBe(failure);
      const paths = new RunPaths(input.out);
      expect(existsSync(paths.runJson)).toBe(false);
      expect(existsSync(paths.scenariosJsonl)).toBe(false);
    });

    it(`${hosting}: nothing ran in an existing run → its run.json is put back byte for byte`, async () => {
      const input = config();
      await runLifecycle(input, fakeExecutor(hosting, { playing: 1 }), quiet);
      const paths = new RunPaths(input.out);
      const ended = readFileSync(paths.runJson, 'utf8');
      await expect(runLifecycle(input, fakeExecutor(hosting, { playing: 0, fail: new Error('gone') }), quiet)).rejects.toThrow('gone');
      expect(readFileSync(paths.runJson, 'utf8')).toBe(ended);
    });

    it(`${hosting}: an executor that failed after recording keeps the records and run.json as started`, async () => {
      const input = config();
      await expect(runLifecycle(input, fakeExecutor(hosting, { playing: 1, fail: new Error('late') }), quiet)).rejects.toThrow('late');
      const paths = new RunPaths(input.out);
      expect(readEpisodes(paths).rows).toHaveLength(1);
      const run = readRunJson(paths);
      expect(run.ok && run.run?.endedAt).toBeNull();
      expect(run.ok && run.run?.hosting).toBe(hosting);
    });
  }

  it('first-valid: an executor that takes each re-draw (redrawAfter) plays them all in one execute, recording what the rounds record', async () => {
    // No turns: every draw is short, so each instance is re-drawn until its last draw is exhausted.
    const marks = (records: EpisodeRecord[]) => records.map((r) => `${r.episodeId} ${r.draw ?? 0} ${r.selection?.status}`).sort();
    const rounds = fakeExecutor('local');
    const byRounds = await runLifecycle(config({ protocol: 'paper' }), rounds, quiet);
    expect(rounds.seen).toHaveLength(MAX_DRAWS);
    const taken: EpisodePlan[][] = [];
    const takes: RunExecutor = {
      hosting: 'local',
      command: 'run',
      async execute(run) {
        taken.push([...run.pending]);
        const queue = [...run.pending];
        for (let p = queue.shift(); p; p = queue.shift()) {
          const r = recordOf(p, run.manifest.runId);
          run.record(r);
          const next = run.redrawAfter(r);
          if (next) queue.push(next);
        }
        return {};
      },
    };
    const byTaking = await runLifecycle(config({ protocol: 'paper' }), takes, quiet);
    expect(taken).toHaveLength(1);
    expect(byTaking.records).toHaveLength(byTaking.planned * MAX_DRAWS);
    expect(marks(byTaking.records)).toEqual(marks(byRounds.records));
    expect(byTaking.stats).toEqual(byRounds.stats);
  });

  it('first-valid: a resumed run counts the re-draws a kill left owed in its progress total (never done > total)', async () => {
    const input = config({ protocol: 'paper' });
    // Killed after the first draws were recorded (all short, so superseded): their re-draws are owed.
    await expect(runLifecycle(input, fakeExecutor('local', { fail: new Error('killed') }), quiet)).rejects.toThrow('killed');
    const lines: string[] = [];
    const resumed = await runLifecycle(input, fakeExecutor('local'), { log: (line) => lines.push(line) });
    const counts = lines.flatMap((l) => /^\[\s*(\d+)\/(\d+)\]/.exec(l)?.slice(1, 3).map(Number) ?? []);
    expect(counts.length).toBeGreaterThan(0);
    for (let i = 0; i < counts.length; i += 2) expect(counts[i]!).toBeLessThanOrEqual(counts[i + 1]!);
    // The first record after the resume: the planned first draws are done, and the owed re-draws are in the total.
    expect(lines.find((l) => l.startsWith('['))).toMatch(new RegExp(`^\\[\\s*${resumed.planned + 1}/${2 * resumed.planned}\\]`));
  });

  it('an interrupted run ends run.json with interrupted: true', async () => {
    const input = config();
    const stop = new AbortController();
    const executor: RunExecutor = {
      hosting: 'local',
      command: 'run',
      async execute(run) {
        run.record(recordOf(run.pending[0]!, run.manifest.runId));
        stop.abort();
        return {};
      },
    };
    const result = await runLifecycle(input, executor, { ...quiet, signal: stop.signal });
    expect(result.interrupted).toBe(true);
    const run = readRunJson(new RunPaths(input.out));
    expect(run.ok && run.run?.interrupted).toBe(true);
    expect(run.ok && run.run?.stats?.episodes.total).toBe(1);
  });
});
