import { writeFileSync } from 'node:fs';

type Pool = { pids: readonly number[]; readyPids: readonly number[] };

/**
 * A timeline of one benchmark run's first and last seconds (issue 44, contract 2: where the ramp and the
 * tail go), written as JSON to the file `BENCH_TIMELINE` names when set: when each agent process was
 * first seen alive and ready (polled every 10 ms), when each episode was prepared, started and recorded,
 * and each turn's time. All times are ms from the run's start. Off (no polling, nothing kept) when unset.
 */
export class Timeline {
  private readonly t0: number;
  private readonly spawned = new Map<number, number>();
  private readonly ready = new Map<number, number>();
  private readonly episodes = new Map<string, { prepared?: number; started?: number; turns: number[] }>();
  private readonly marks: Array<[string, number]> = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(t0: number, private readonly file = process.env.BENCH_TIMELINE) {
    this.t0 = t0;
  }

  get on(): boolean {
    return Boolean(this.file);
  }

  private now(): number {
    return Math.round((performance.now() - this.t0) * 10) / 10;
  }

  mark(what: string): void {
    if (this.on) this.marks.push([what, this.now()]);
  }

  watch(pool: Pool): void {
    if (!this.on) return;
    const poll = () => {
      const t = this.now();
      for (const pid of pool.pids) if (!this.spawned.has(pid)) this.spawned.set(pid, t);
      for (const pid of pool.readyPids) if (!this.ready.has(pid)) this.ready.set(pid, t);
    };
    poll();
    this.timer = setInterval(poll, 10);
  }

  private episode(id: string) {
    let e = this.episodes.get(id);
    if (!e) this.episodes.set(id, (e = { turns: [] }));
    return e;
  }

  prepared(id: string): void {
    if (this.on) this.episode(id).prepared = this.now();
  }

  started(id: string): void {
    if (this.on) this.episode(id).started = this.now();
  }

  turn(id: string): void {
    if (this.on) this.episode(id).turns.push(this.now());
  }

  /** Writes the timeline with each episode's seats' pids (from the records). */
  write(seatPids: ReadonlyMap<string, readonly number[]>): void {
    clearInterval(this.timer);
    if (!this.file) return;
    const processes = [...this.spawned].map(([pid, seen]) => ({ pid, seen, ready: this.ready.get(pid) ?? null }));
    const episodes = [...this.episodes].map(([id, e]) => ({ id, ...e, pids: seatPids.get(id) ?? [] }));
    writeFileSync(this.file, JSON.stringify({ marks: this.marks, processes, episodes }));
  }
}
