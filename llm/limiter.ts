import { abortableSleep, abortError } from './retry.js';

/** Limits of one provider endpoint. */
export interface Limits {
  maxConcurrent: number;
  /** Requests started per rolling minute; 0 = unlimited. */
  rpm: number;
}

/**
 * Per-process gate in front of one provider endpoint: at most `maxConcurrent` requests in flight and
 * at most `rpm` started in any rolling 60 s. Every attempt (retries included) passes through it, so a
 * burst of seats in one process cannot hammer a rate-limited server.
 */
export class RequestLimiter {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly starts: number[] = [];

  constructor(
    private limits: Limits,
    private readonly now: () => number = Date.now,
  ) {}

  /** Later clients of the same endpoint may tighten or relax the limits; the latest settings win. */
  update(limits: Limits): void {
    this.limits = limits;
    this.drain();
  }

  get inFlight(): number {
    return this.active;
  }

  /** Runs `task` once a slot is free and the minute budget allows. */
  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquire(signal);
    try {
      return await task();
    } finally {
      this.active--;
      this.drain();
    }
  }

  private async acquire(signal?: AbortSignal): Promise<void> {
    if (this.active >= this.limits.maxConcurrent) {
      await new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(abortError(signal));
        const wake = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = () => {
          const i = this.waiting.indexOf(wake);
          if (i >= 0) this.waiting.splice(i, 1);
          reject(abortError(signal!));
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        this.waiting.push(wake);
      });
    } else {
      this.active++;
    }
    // Slot held; now respect the per-minute budget.
    try {
      while (this.limits.rpm > 0) {
        const t = this.now();
        while (this.starts.length > 0 && this.starts[0]! <= t - 60_000) this.starts.shift();
        if (this.starts.length < this.limits.rpm) break;
        await abortableSleep(this.starts[0]! + 60_000 - t, signal);
      }
    } catch (err) {
      this.active--;
      this.drain();
      throw err;
    }
    this.starts.push(this.now());
  }

  private drain(): void {
    while (this.active < this.limits.maxConcurrent && this.waiting.length > 0) {
      this.active++;
      this.waiting.shift()!();
    }
  }
}

const limiters = new Map<string, RequestLimiter>();

/** The process-wide limiter for a provider endpoint (provider + base URL). */
export function limiterFor(key: string, limits: Limits): RequestLimiter {
  let limiter = limiters.get(key);
  if (!limiter) {
    limiter = new RequestLimiter(limits);
    limiters.set(key, limiter);
  } else {
    limiter.update(limits);
  }
  return limiter;
}
