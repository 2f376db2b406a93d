import { Redis } from 'ioredis';

/** A queue URL, checked: `redis://[user:pass@]HOST:PORT[/db]` or `rediss://…` (TLS). */
export type QueueUrl = { ok: true; url: string; shown: string } | { ok: false; message: string };

/**
 * Validates a `--queue` value and builds the form that is safe to print (the password replaced by
 * `***`): the URL is named in every message, the secret in none.
 */
export function parseQueueUrl(raw: string): QueueUrl {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return { ok: false, message: `--queue: '${raw}' is not a URL (expected redis://[user:pass@]HOST:PORT[/db])` };
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') {
    return { ok: false, message: `--queue: '${redactUrl(raw)}' must start with redis:// or rediss://` };
  }
  if (!u.hostname) return { ok: false, message: `--queue: '${redactUrl(raw)}' names no host` };
  const db = u.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d+$/.test(db)) return { ok: false, message: `--queue: '${redactUrl(raw)}': the path must be a database number` };
  return { ok: true, url: raw, shown: redactUrl(raw) };
}

/** The URL with its password hidden, for logs and errors. */
export function redactUrl(raw: string): string {
  try {
    const u = new URL(raw);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return raw.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
  }
}

/**
 * Connects once and pings, with no retries and a short timeout: the CLI calls this before anything is
 * written, so an unreachable Redis costs one line and a non-zero exit, not a half-made run directory.
 * Resolves null when Redis answered, else the reason.
 */
export async function probeRedis(url: string, timeoutMs = 5_000): Promise<string | null> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  // Connection errors surface through connect()/ping(); this listener keeps ioredis from printing them too.
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    return null;
  } catch (err) {
    return (err as Error).message || String(err);
  } finally {
    client.disconnect();
  }
}

/** Connection options for BullMQ's own clients: workers block on Redis, so no per-command retry cap. */
export function bullConnection(url: string): { url: string; maxRetriesPerRequest: null } {
  return { url, maxRetriesPerRequest: null };
}
