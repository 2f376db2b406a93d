import { fork } from 'node:child_process';
import { availableParallelism, getPriority, setPriority } from 'node:os';
import type { PolicyConfig, WorkerDrop, WorkerHost } from '../../protocol/index.js';
import { workerNodeArgs } from './worker-node-args.js';
import { agentEnv } from './agent-entry.js';
import { BOT_PROCESS_NODE_FLAGS } from './bot-process-flags.js';
import { ONE_SEAT_PROCESS_NODE_FLAGS, perProcessSeed } from './one-seat-process-flags.js';
import { markUsed } from '../../disk/bundle-cache.js';
import { policyMayUseTls } from '../../llm/tls-need.js';
import { Worker, type HostedSeat, type Hosting, type SeatRelease } from './pool-worker.js';
import { SnapshotEvidence } from './snapshot-evidence.js';
import { DemandGrowth } from './demand-growth.js';
import type { Launch } from './worker-snapshot.js';
import { chooseLaunch } from './worker-launch.js';
import type { WorkerPoolOptions } from './worker-pool-options.js';

export type { HostedSeat, SeatRelease } from './pool-worker.js';
export type { WorkerPoolOptions } from './worker-pool-options.js';

const MAX_START_FAILURES = 3;

/**
 * The supervisor's pool of local agent processes (IPC contract: protocol/worker-ipc.ts): `child_process.fork` of the
 * agent entry, from its start-up snapshot or bundle (under tsx only when neither can be had: worker-launch.ts). Workers are spawned ahead and reused across episodes. `host()` picks a ready worker that is not
 * already hosting a seat of the same episode (DESIGN invariant 1), so two seats of one episode never
 * share a process, whatever the pool size or multiplexing. The pool fills in the background, a few
 * workers starting at a time: seats go to the workers that are ready, so episodes start on the first
 * ones instead of waiting for the whole pool.
 */
export class WorkerPool {
  private workers: Worker[] = [];
  private waiters: Array<() => void> = [];
  private closing = false;
  private readonly seatsPerWorker: number;
  /** Workers kept: `opts.size`, or more once `grow` is called (a pool lent to several runs). */
  private size: number;
  private readonly killAll = () => {
    for (const w of this.workers) w.child.kill('SIGKILL');
  };

  private readonly startParallelism: number;
  /**
   * Bot-only and one seat per process: the processes are many and each does little, so memory is what
   * they cost. A multiplexed process plays dozens of seats and keeps its optimising compilers.
   */
  private readonly leanBots: boolean;

  constructor(private readonly opts: WorkerPoolOptions) {
    this.seatsPerWorker = opts.seatsPerWorker ?? 1;
    this.size = opts.size;
    this.startParallelism = Math.max(1, opts.startParallelism ?? 2 * availableParallelism());
    this.leanBots = (opts.botsOnly ?? false) && this.seatsPerWorker === 1;
    this.growth = opts.growOnDemand ? new DemandGrowth(this.firstWave(), { live: () => this.workers.filter((w) => !w.dead).length, starting: () => this.starting(), fill: () => this.fill() }) : null;
    process.on('exit', this.killAll);
  }
  private readonly growth: DemandGrowth | null;
  private readonly firstWave = () => Math.min(this.size, Math.max(1, this.opts.firstWave ?? this.startParallelism));
  /** Workers kept now: `size`, or, growing on demand, the first wave and one per seat that waited too long. */
  private readonly kept = () => (this.growth ? Math.min(this.size, this.growth.kept) : this.size);

  /** How workers are launched (entry file and node flags), settled once before the first spawn. */
  private launch: Launch | null = null;
  private launching: Promise<void> | null = null;

  private prepare(): Promise<void> {
    this.launching ??= chooseLaunch({ ...this.opts, v8Flags: this.v8Flags() }).then((launch) => {
      this.launch = launch;
    });
    return this.launching;
  }

  /** Node flags of this pool's workers beside their entry's (a snapshot is built with them). */
  private v8Flags(): readonly string[] {
    if (this.leanBots) return BOT_PROCESS_NODE_FLAGS;
    return this.seatsPerWorker === 1 ? ONE_SEAT_PROCESS_NODE_FLAGS : [];
  }

  /** Early deaths of processes from the snapshot: as many in a row as would fail a plain pool blame the blob. */
  private readonly snapshotEvidence = new SnapshotEvidence(MAX_START_FAILURES);

  /** A worker from the snapshot died before `ready`: once the blob is to blame, the next ones start plain. */
  private snapshotDiedEarly(why: string): void {
    // A closing pool stops its starting processes itself: no evidence against the blob, nothing to log.
    if (!this.launch?.plain || this.closing) return;
    if (!this.snapshotEvidence.diedEarly()) {
      this.opts.log?.(`a process from the start-up snapshot died before ready (${why}; ${this.snapshotEvidence.count} in a row, the pool starts plain at ${this.snapshotEvidence.limit})`);
      return;
    }
    this.opts.log?.(`agent processes start without the start-up snapshot (${this.snapshotEvidence.count} processes from it did not start, the last: ${why})`);
    this.launch = this.launch.plain;
  }

  /**
   * Starts filling the pool (`startParallelism` workers starting at a time) and resolves once the first
   * worker is ready, so episodes can start on it; the others keep starting. Rejects when workers keep
   * failing to start (a broken entry fails here, as before any episode).
   */
  async start(): Promise<void> {
    await this.prepare();
    this.fill();
    for (;;) {
      if (this.workers.some((w) => w.isReady && !w.dead)) return;
      if (this.closing) throw new Error('worker pool is closed');
      if (this.startFailures >= MAX_START_FAILURES || !this.workers.some((w) => !w.dead)) {
        throw new Error(`agent processes keep failing to start (${this.lastStartError?.message ?? 'unknown'})`);
      }
      await new Promise<void>((r) => this.waiters.push(r));
    }
  }

  /** True once the workers kept (`size`, unless growing on demand) are ready, false if the pool stopped filling first (closed, or failing). */
  async full(): Promise<boolean> {
    for (;;) {
      if (this.workers.filter((w) => w.isReady && !w.dead).length >= this.kept()) return true;
      if (this.closing || this.startFailures >= MAX_START_FAILURES) return false;
      await new Promise<void>((r) => this.waiters.push(r));
    }
  }

  /** Keeps at least `size` workers from now on (more seats in flight: another run borrowing the pool); never shrinks. */
  grow(size: number): void {
    if (size <= this.size) return;
    this.size = size;
    this.fill();
  }

  /** Workers spawned and not yet ready. */
  private starting(): number {
    return this.workers.filter((w) => !w.dead && !w.isReady).length;
  }

  /**
   * Spawns workers up to `size`, at most `startParallelism` starting at once (only the first wave until
   * it is ready: `firstWave`); called again as each one is ready.
   */
  private fill(): void {
    if (!this.launch) return;
    this.growth?.raise();
    const firstWave = this.firstWave();
    const ready = this.workers.filter((w) => w.isReady && !w.dead).length;
    const parallel = ready < firstWave ? Math.min(this.startParallelism, firstWave - ready) : this.startParallelism;
    // The spares wait until the processes the seats in flight need are ready: started beside the last of
    // those, a spare took its share of the CPU they start with, and the last lanes wait for them.
    const needed = this.opts.needed;
    const cap = needed !== undefined && ready < needed ? Math.min(this.kept(), needed) : this.kept();
    while (!this.closing && this.startFailures < MAX_START_FAILURES && this.workers.filter((w) => !w.dead).length < cap && this.starting() < parallel) {
      this.spawn();
    }
  }

  /** Pids of live workers. */
  get pids(): number[] {
    return this.workers.filter((w) => !w.dead).map((w) => w.pid);
  }

  /** Pids of live workers that are ready (the others are still starting). */
  get readyPids(): number[] {
    return this.workers.filter((w) => !w.dead && w.isReady).map((w) => w.pid);
  }

  /** Hands a seat to a worker: it connects to `url` and joins with `token`. */
  async host(req: { episodeId: string; url: string; token: string; resume?: string; policy: PolicyConfig }): Promise<HostedSeat> {
    let resolve!: Hosting['resolve'];
    const released = new Promise<SeatRelease>((r) => (resolve = r));
    if (this.opts.tlsFree && policyMayUseTls(req.policy, this.opts.env ?? process.env)) {
      throw new Error(`${req.policy.spec} may open TLS, and this pool's agent processes start without NODE_EXTRA_CA_CERTS (tlsFree)`);
    }
    const msg: WorkerHost = { type: 'host', url: req.url, token: req.token, ...(req.resume !== undefined ? { resume: req.resume } : {}), policy: req.policy };
    for (;;) {
      const ticket = this.growth?.wait();
      const worker = await this.acquire({ episodeId: req.episodeId, resolve }, req.token).finally(() => ticket && this.growth!.done(ticket));
      const sent = await new Promise<Error | null>((r) => {
        try {
          worker.child.send(msg, (err) => r(err ?? null));
        } catch (err) {
          r(err as Error);
        }
      });
      if (!sent) return { pid: worker.pid, released };
      // The worker died between being picked and the message (its exit may not be processed yet): use another.
      worker.hosting.delete(req.token);
      this.opts.log?.(`agent process ${worker.pid} unreachable (${sent.message}); hosting elsewhere`);
      worker.child.kill('SIGKILL');
      worker.dead = true;
    }
  }

  /** Kills a worker that misbehaves (e.g. never released its seat); a replacement is spawned on demand. */
  retire(pid: number): void {
    this.workers.find((w) => w.pid === pid && !w.dead)?.child.kill('SIGKILL');
  }

  /**
   * Gives up on one seat that its worker has not released (its episode is over). A worker hosting only
   * that seat is killed and replaced on demand, as `retire` does. A worker that also hosts seats of other
   * episodes (multiplexed mode) is not: killing it would end those episodes' seats with it, so it is told
   * to drop this seat and the slot is freed here at once. A worker that is truly hung is caught by its
   * other seats' heartbeats, which retire it.
   */
  abandon(pid: number, token: string, reason: string): void {
    const worker = this.workers.find((w) => w.pid === pid && !w.dead);
    if (!worker) return;
    const others = [...worker.hosting.keys()].filter((t) => t !== token);
    if (others.length === 0) {
      worker.child.kill('SIGKILL');
      return;
    }
    const hosting = worker.hosting.get(token);
    if (hosting) {
      worker.hosting.delete(token);
      worker.over.delete(token);
      hosting.resolve({ ok: false, error: reason });
    }
    const drop: WorkerDrop = { type: 'drop', token, reason };
    try {
      worker.child.send(drop, () => {});
    } catch {
      // The channel is gone: the worker's exit is on its way and is handled there.
    }
    for (const wake of this.waiters.splice(0)) wake();
  }

  /**
   * A hosted seat's episode is over (its record is written): in a multiplexed pool its slot goes to the next
   * episode now instead of when the process reports the seat released. The lanes of a wave end together, and
   * their next episodes waited for those releases (a nice-19 process waking to close its connections: tens
   * to hundreds of ms under load), since the spare seats are fewer than the seats a wave frees. One seat a
   * process keeps waiting: a process takes a second seat only in the multiplexed mode a user opted into.
   */
  seatOver(pid: number, token: string): void {
    if (this.seatsPerWorker === 1) return;
    const worker = this.workers.find((w) => w.pid === pid && !w.dead);
    if (!worker?.hosting.has(token) || worker.over.has(token)) return;
    worker.over.add(token);
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** Stops every worker (SIGTERM, then SIGKILL after `graceMs`). */
  async close(graceMs = 3_000): Promise<void> {
    this.closing = true;
    this.growth?.stop();
    process.off('exit', this.killAll);
    const live = this.workers.filter((w) => !w.dead);
    await Promise.all(
      live.map(async (w) => {
        if (w.child.exitCode !== null || w.child.signalCode !== null) return;
        const exited = new Promise<void>((r) => w.child.once('exit', () => r()));
        w.child.kill('SIGTERM');
        const timer = setTimeout(() => w.child.kill('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }),
    );
    this.workers = [];
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** Consecutive workers that died before `ready`: past a few, hosting gives up instead of respawning forever. */
  private startFailures = 0;
  private lastStartError: Error | null = null;

  private noteStartFailure(err: Error): void {
    this.startFailures += 1;
    this.lastStartError = err;
  }

  private spawn(): Worker {
    if (this.startFailures >= MAX_START_FAILURES) {
      throw new Error(`agent processes keep failing to start (${this.lastStartError?.message ?? 'unknown'})`);
    }
    if (!this.launch) throw new Error('worker pool used before prepare()');
    // A long-lived pool (serve, a queue worker) keeps its bundle marked as in use, so no prune removes it.
    if (this.launch.bundled) for (const file of [this.launch.path, ...this.launch.bundled]) markUsed(file);
    const fromSnapshot = this.launch.plain !== undefined;
    const forkedAt = performance.now();
    // PARLEY_WORKER_NODE_ARGS: extra node flags for agent processes (profiling, heap limits).
    // A snapshot launch holds the V8 flags its blob was built with (snapshotArgs).
    const execArgv = [...this.launch.execArgv, ...(fromSnapshot ? [] : this.v8Flags()), ...workerNodeArgs()];
    const child = fork(this.launch.path, [], {
      execArgv: [...execArgv, ...perProcessSeed(execArgv)],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      env: agentEnv(this.opts.env ?? process.env, { tlsFree: this.opts.tlsFree ?? false }),
    });
    if (child.pid !== undefined) this.opts.spawned?.(child.pid);
    if (this.opts.niceness && child.pid !== undefined) {
      try {
        setPriority(child.pid, Math.min(19, getPriority() + this.opts.niceness));
      } catch {
        // Not permitted here: the workers run at the orchestrator's priority.
      }
    }
    const countStartFailure = (w: Worker, err: Error) => {
      if (w.isReady || w.startFailureCounted) return;
      w.startFailureCounted = true;
      // Not counted: the blob is judged apart (SnapshotEvidence), and a first wave from a blob Node refuses would
      // otherwise use up MAX_START_FAILURES and fail the pool instead of falling back.
      if (fromSnapshot) return this.snapshotDiedEarly(err.message);
      this.noteStartFailure(err);
    };
    const worker = new Worker(child, { windowMs: this.opts.readyTimeoutMs ?? 30_000, cpuBudgetMs: this.opts.readyCpuMs ?? 30_000 }, this.opts.warm ?? [], (w, why) => {
      // Counted now, not when `ready` rejects (a microtask later): fill() below must see it.
      if (w.dead) countStartFailure(w, new Error(why));
      if (w.dead) {
        this.workers = this.workers.filter((x) => x !== w);
        if (!this.closing) this.opts.log?.(why);
      }
      // A start slot is free (ready or dead): the next worker may start.
      this.fill();
      for (const wake of this.waiters.splice(0)) wake();
    });
    worker.ready.then(
      () => {
        this.startFailures = 0;
        this.growth?.started(performance.now() - forkedAt);
        if (fromSnapshot) this.snapshotEvidence.healthy();
      },
      (err: Error) => countStartFailure(worker, err),
    );
    this.workers.push(worker);
    return worker;
  }

  /** Finds a ready worker with room that hosts no seat of this episode, and books the seat on it. */
  private async acquire(hosting: Hosting, token: string): Promise<Worker> {
    await this.prepare();
    const { episodeId } = hosting;
    const fits = (w: Worker) => !w.dead && w.seatsInPlay < this.seatsPerWorker && !hostsEpisode(w, episodeId);
    for (;;) {
      if (this.closing) throw new Error('worker pool is closed');
      const live = this.workers.filter((w) => !w.dead);
      // Booked synchronously after the check: no other seat can take the slot in between.
      const candidate = live.find((w) => w.isReady && fits(w));
      if (candidate) {
        candidate.hosting.set(token, hosting);
        return candidate;
      }
      // A worker still starting hosts nothing, so it will fit: wait for it (or any other) to be ready.
      if (!live.some((w) => !w.isReady)) {
        // Grow back to size after deaths; grow past it only if every worker already hosts this episode.
        const allHostThis = live.every((w) => hostsEpisode(w, episodeId));
        if (allHostThis) this.spawn();
        else if (live.length < this.kept()) {
          this.fill();
          if (this.starting() === 0) this.spawn(); // throws once workers keep failing to start
        }
        if (this.starting() > 0) continue;
      }
      await new Promise<void>((r) => this.waiters.push(r));
    }
  }
}

/**
 * Whether a worker hosts a seat of this episode. A loop, not a spread: every waiting seat re-checks every
 * worker each time a slot frees, which at 1,000 multiplexed episodes showed in the CPU profile.
 */
function hostsEpisode(w: Worker, episodeId: string): boolean {
  for (const h of w.hosting.values()) if (h.episodeId === episodeId) return true;
  return false;
}
