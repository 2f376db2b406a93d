import type { ChildProcess } from 'node:child_process';
import { WorkerToParent, type PolicyConfig, type WorkerWarm } from '../../protocol/index.js';
import { watchStart } from './start-watch.js';

/**
 * One forked agent process of the pool (worker-pool.ts) as the parent sees it: whether it is ready (started
 * and, with warm policies, done loading them), the seats it hosts, and how each ended. The pool decides
 * where seats go; this owns one process's IPC.
 */

/** How a hosted seat ended on its worker. */
export interface SeatRelease {
  /** The seat ended normally (an `episode.end` arrived). */
  ok: boolean;
  error?: string;
  /** The worker process itself died (crash, kill): the seat may be re-established elsewhere. */
  exited?: boolean;
}

/** A seat handed to a worker. */
export interface HostedSeat {
  /** Pid of the forked process (cross-checked against the pid the seat reports at join). */
  pid: number;
  /** Resolves when the worker reports the seat's connection ended, or the worker died. */
  released: Promise<SeatRelease>;
}

export interface Hosting {
  episodeId: string;
  resolve: (r: SeatRelease) => void;
}

export class Worker {
  readonly hosting = new Map<string, Hosting>();
  /**
   * Hosted seats whose episode is over (recorded): their processes are only closing the connections, so a
   * multiplexed pool gives their slots to the next episodes at once (worker-pool.ts `seatOver`).
   */
  readonly over = new Set<string>();
  dead = false;
  /** Set once `ready` resolved: the worker may take seats. */
  isReady = false;
  /** Its failure to start has been counted (by its exit or its `ready` rejecting, whichever comes first). */
  startFailureCounted = false;
  readonly ready: Promise<void>;

  /**
   * Ready means started and, with `warm` policies, done loading them (so a seat's first move does not
   * pay for an SDK import). A policy that fails to warm is not fatal here: hosting it reports why.
   * `onChange` tells the pool each time the worker became ready, released a seat or died. A worker that
   * stops starting (`start`: no CPU used for a whole window, or its CPU budget used; start-watch.ts) is
   * killed; one that is slow only because the machine is busy is not.
   */
  constructor(readonly child: ChildProcess, start: { windowMs: number; cpuBudgetMs: number }, warm: readonly PolicyConfig[], onChange: (w: Worker, why: string) => void) {
    this.ready = new Promise((resolve, reject) => {
      const watch = child.pid === undefined ? null : watchStart(child.pid, {
        ...start,
        onHung: (why) => {
          reject(new Error(`agent process ${child.pid} ${why}`));
          child.kill('SIGKILL');
        },
      });
      child.on('message', (raw) => {
        const msg = WorkerToParent.safeParse(raw);
        if (!msg.success) return;
        if (msg.data.type === 'ready') {
          if (warm.length === 0) {
            watch?.stop();
            this.isReady = true;
            resolve();
            return onChange(this, 'ready');
          }
          const request: WorkerWarm = { type: 'warm', policies: [...warm] };
          child.send(request, (err) => err && reject(err));
        } else if (msg.data.type === 'warmed') {
          watch?.stop();
          this.isReady = true;
          resolve();
          onChange(this, 'ready');
        } else {
          const h = this.hosting.get(msg.data.token);
          if (!h) return;
          this.hosting.delete(msg.data.token);
          this.over.delete(msg.data.token);
          h.resolve(msg.data.error === undefined ? { ok: msg.data.ok } : { ok: msg.data.ok, error: msg.data.error });
          onChange(this, 'released');
        }
      });
      child.on('exit', (code, signal) => {
        watch?.stop();
        this.dead = true;
        const why = `agent process ${child.pid} exited (${signal ?? `code ${code}`})`;
        reject(new Error(why));
        for (const h of this.hosting.values()) h.resolve({ ok: false, error: why, exited: true });
        this.hosting.clear();
        this.over.clear();
        onChange(this, why);
      });
      child.on('error', (err) => {
        watch?.stop();
        reject(err);
      });
    });
    this.ready.catch(() => {});
  }

  /** Seats that take a slot: hosted, and not of an episode that is over. */
  get seatsInPlay(): number {
    return this.hosting.size - this.over.size;
  }

  get pid(): number {
    return this.child.pid!;
  }
}
