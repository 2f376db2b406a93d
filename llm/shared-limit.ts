import { createHash } from 'node:crypto';
import { abortableSleep } from './retry.js';

/**
 * Account-wide provider limits through Redis, shared by every process of every `parley worker`.
 * Set by `parley worker` (its agent processes inherit it): the Redis URL. Unset, limits stay
 * per process (limiter.ts) and nothing here is loaded.
 */
export const SHARED_LIMIT_ENV = 'PARLEY_RATE_LIMIT_REDIS';

/**
 * The Redis of the shared limits (SHARED_LIMIT_ENV), or null when unset or empty. Anything but a
 * `redis://` or `rediss://` URL naming a host is refused (cli/run-command.ts checks it before any command
 * runs, as every variable the processes read): a typo used to reach ioredis, whose every LLM call then
 * failed on a Redis that could not exist. The message never shows a password.
 */
export function sharedLimitUrl(env: NodeJS.ProcessEnv = process.env): string | null {
  const raw = env[SHARED_LIMIT_ENV];
  if (raw === undefined || raw.trim() === '') return null;
  const expected = `${SHARED_LIMIT_ENV} (set by parley worker for its agent processes): expected redis://[user:pass@]HOST:PORT[/db] or rediss://...`;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new Error(`${expected}, got a value that is not a URL`);
  }
  if (u.password) u.password = '***';
  const db = u.pathname.replace(/^\//, '');
  if ((u.protocol !== 'redis:' && u.protocol !== 'rediss:') || !u.hostname || (db !== '' && !/^\d+$/.test(db))) throw new Error(`${expected}, got ${JSON.stringify(u.toString())}`);
  return raw;
}

/** Limits of one provider account (provider + endpoint + key); 0 = none. */
export interface SharedLimits {
  rpm: number;
  tpm: number;
}

/**
 * A request slot is held while its request is in flight (at most this long, should the process die
 * with it) and then, from the moment the answer or error came back, for a minute. The provider saw
 * the request before that moment, so the next request on the slot reaches it more than a minute
 * later, whatever the network and CPU delays between the gate and the provider: at most `rpm`
 * requests in any 60 s of the provider's log. The price: a slot turns over every minute plus one
 * request's latency.
 */
export const SLOT_HOLD_SECONDS = 600;
export const SLOT_REUSE_SECONDS = 60;

/**
 * The limits' window, in whole seconds: a minute, as providers count `rpm` and `tpm`. The variable exists
 * so tests prove the same property (no window holds more than the limit) in seconds instead of minutes;
 * users have no reason to set it.
 */
export const RATE_WINDOW_ENV = 'PARLEY_RATE_WINDOW_SECONDS';
export function rateWindowSeconds(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[RATE_WINDOW_ENV];
  if (raw === undefined) return SLOT_REUSE_SECONDS;
  const v = /^\s*\d+\s*$/.test(raw) ? Number(raw) : NaN;
  // Refused, not replaced by the minute (cli/run-command.ts checks it before any command runs).
  if (!(Number.isInteger(v) && v > 0 && v <= SLOT_REUSE_SECONDS)) throw new Error(`${RATE_WINDOW_ENV}: expected a whole number of seconds from 1 to ${SLOT_REUSE_SECONDS}, got ${JSON.stringify(raw)}`);
  return v;
}

/** The structural parts of rate-limiter-flexible used here (the library ships loose typings). */
interface Limiter {
  consume(key: string, points?: number): Promise<unknown>;
  penalty(key: string, points?: number): Promise<unknown>;
  reward(key: string, points?: number): Promise<unknown>;
  get(key: string): Promise<{ consumedPoints: number; msBeforeNext: number } | null>;
  block(key: string, secDuration: number): Promise<unknown>;
}
type RateLimiterRes = { msBeforeNext: number };

/**
 * The gate of one provider account, backed by rate-limiter-flexible's Redis store (over ioredis):
 *  - requests per minute: `rpm` slots, each a 1-point limiter; request k takes slot k mod rpm (a shared
 *    counter) and holds it until a minute after its answer, so request k goes a minute after request
 *    k−rpm has come back — a sliding-window guarantee, not a fixed window that allows 2×rpm across a
 *    boundary (see SLOT_HOLD_SECONDS);
 *  - tokens per minute: a `tpm`-point limiter over 60 s windows; a request consumes its estimate
 *    before it goes and the difference to the real usage after it comes back;
 *  - 429: every process waits the server's `Retry-After` (a shared block) before its next request.
 */
export class SharedRateLimit {
  constructor(
    private readonly redis: { incr(key: string): Promise<number> },
    private readonly key: string,
    private readonly limits: SharedLimits,
    private readonly slots: Limiter,
    private readonly tokens: Limiter | null,
    private readonly pauses: Limiter,
    /** How long a slot stays taken after its answer (the window: a minute unless a test shortens it). */
    private readonly windowSeconds: number = SLOT_REUSE_SECONDS,
  ) {}

  /**
   * Waits until this request may go: no shared pause, a free request slot, room in the token budget.
   * Call `done()` of the result once the request has come back (answer or error): the slot is then
   * kept another minute.
   */
  async admit(estimatedTokens: number, signal?: AbortSignal): Promise<{ done(): Promise<void> }> {
    await this.waitPause(signal);
    let slot: string | null = null;
    if (this.limits.rpm > 0) {
      const ticket = await this.redis.incr(`parley:rl:ticket:${this.key}`);
      const key = `${this.key}:${ticket % this.limits.rpm}`;
      await this.retryUntilAdmitted(() => this.slots.consume(key, 1), signal);
      slot = key;
    }
    try {
      if (this.tokens && this.limits.tpm > 0) {
        const points = Math.max(1, Math.min(this.limits.tpm, Math.round(estimatedTokens)));
        // A refused consume still counts its points in rate-limiter-flexible: they are given back, so
        // the budget holds only what was admitted.
        await this.retryUntilAdmitted(() => this.tokens!.consume(this.key, points), signal, () => this.tokens!.reward(this.key, points));
      }
    } catch (err) {
      if (slot) await this.slots.block(slot, 1).catch(() => {});
      throw err;
    }
    return { done: async () => void (slot && (await this.slots.block(slot, this.windowSeconds))) };
  }

  /** Corrects the token budget once the real usage is known. */
  async settle(estimatedTokens: number, actualTokens: number): Promise<void> {
    if (!this.tokens || this.limits.tpm <= 0) return;
    const estimate = Math.max(1, Math.min(this.limits.tpm, Math.round(estimatedTokens)));
    const diff = Math.round(actualTokens) - estimate;
    if (diff > 0) await this.tokens.penalty(this.key, diff);
    else if (diff < 0) await this.tokens.reward(this.key, -diff);
  }

  /** A 429: every process of every worker holds its next request for `ms`. */
  async pause(ms: number): Promise<void> {
    await this.pauses.block(this.key, Math.max(1, Math.ceil(ms / 1000)));
  }

  private async waitPause(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const res = await this.pauses.get(this.key);
      if (!res || res.consumedPoints <= 1 || res.msBeforeNext <= 0) return;
      await abortableSleep(res.msBeforeNext, signal);
    }
  }

  private async retryUntilAdmitted(consume: () => Promise<unknown>, signal?: AbortSignal, giveBack?: () => Promise<unknown>): Promise<void> {
    for (;;) {
      try {
        await consume();
        return;
      } catch (res) {
        if (res instanceof Error) throw new Error(`shared rate limit (Redis): ${res.message}`, { cause: res });
        await giveBack?.();
        await abortableSleep(Math.max(1, (res as RateLimiterRes).msBeforeNext), signal);
      }
    }
  }
}

/** A provider account's key in Redis: provider, endpoint and a hash of the API key (never the key). */
export function accountKey(provider: string, endpoint: string, apiKey: string): string {
  const tag = createHash('sha256').update(apiKey).digest('hex').slice(0, 16);
  return `${provider}|${endpoint}|${tag}`;
}

const gates = new Map<string, Promise<SharedRateLimit>>();
let client: Promise<{ incr(key: string): Promise<number> }> | null = null;

/**
 * The shared gate of an account when this process is one of a worker's (`SHARED_LIMIT_ENV` set) and
 * the policy asks for a limit; null otherwise. Loads ioredis and rate-limiter-flexible on first use.
 */
export function sharedRateLimitFor(key: string, limits: SharedLimits, env: NodeJS.ProcessEnv = process.env): Promise<SharedRateLimit> | null {
  if (limits.rpm <= 0 && limits.tpm <= 0) return null;
  const url = sharedLimitUrl(env);
  if (!url) return null;
  const id = `${key}|${limits.rpm}|${limits.tpm}`;
  let gate = gates.get(id);
  if (!gate) {
    gate = (async () => {
      const [ioredis, rlfModule] = await Promise.all([import('ioredis'), import('rate-limiter-flexible')]);
      // Both are CommonJS: under the agent bundle their exports may sit on `default`.
      const Redis = (ioredis.Redis ?? (ioredis as unknown as { default: typeof ioredis }).default.Redis ?? (ioredis as unknown as { default: typeof ioredis.Redis }).default) as typeof ioredis.Redis;
      const rlf = (rlfModule.RateLimiterRedis ? rlfModule : (rlfModule as unknown as { default: typeof rlfModule }).default) as typeof rlfModule;
      client ??= Promise.resolve().then(() => {
        const redis = new Redis(url, { maxRetriesPerRequest: 3 });
        redis.on('error', () => {});
        return redis;
      });
      const storeClient = await client;
      const make = (keyPrefix: string, points: number, duration: number) =>
        new rlf.RateLimiterRedis({ storeClient, keyPrefix, points, duration }) as unknown as Limiter;
      const window = rateWindowSeconds(env);
      return new SharedRateLimit(
        storeClient,
        key,
        limits,
        make('parley:rl:slot', 1, SLOT_HOLD_SECONDS),
        limits.tpm > 0 ? make(`parley:rl:tpm${limits.tpm}:${window}`, limits.tpm, window) : null,
        make('parley:rl:pause', 1, 1),
        window,
      );
    })();
    // Awaited by every call through the gate (where a failure becomes that call's error); this keeps a
    // failure before the first call from being an unhandled rejection that ends the process.
    gate.catch(() => {});
    gates.set(id, gate);
  }
  return gate;
}

/** Rough prompt size before the call (4 characters a token) plus the completion cap when one is set. */
export function estimateTokens(messages: ReadonlyArray<{ content: string }>, maxTokens?: number): number {
  let chars = 0;
  for (const m of messages) chars += m.content.length;
  return Math.ceil(chars / 4) + (maxTokens ?? 0);
}
