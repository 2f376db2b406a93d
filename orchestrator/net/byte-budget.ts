import { MAX_FRAME_BYTES } from '../../protocol/index.js';

export interface ByteBudgetOptions {
  /** Bytes a connection may send in a burst. */
  burstBytes?: number;
  /** Bytes per second the budget refills. */
  bytesPerSecond?: number;
}

/**
 * Far above what any agent sends (a turn is a few KB, a whole script at most one frame), far below what
 * would grow the orchestrator's memory: 4 full frames at once, then 128 KB/s.
 */
export const BYTE_BUDGET_DEFAULTS = { burstBytes: 4 * MAX_FRAME_BYTES, bytesPerSecond: 128 * 1024 } as const;

/** A token bucket of inbound bytes for one connection, on the caller's clock (ms). */
export class ByteBudget {
  private readonly burst: number;
  private readonly rate: number;
  private available: number;
  private last: number;

  constructor(now: number, opts: ByteBudgetOptions = {}) {
    this.burst = opts.burstBytes ?? BYTE_BUDGET_DEFAULTS.burstBytes;
    this.rate = opts.bytesPerSecond ?? BYTE_BUDGET_DEFAULTS.bytesPerSecond;
    this.available = this.burst;
    this.last = now;
  }

  /** Spends `bytes` at `now`; false when the connection is over its budget. */
  spend(bytes: number, now: number): boolean {
    this.available = Math.min(this.burst, this.available + ((now - this.last) / 1000) * this.rate);
    this.last = now;
    this.available -= bytes;
    return this.available >= 0;
  }
}
