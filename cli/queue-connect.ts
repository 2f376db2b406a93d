import { UsageError } from './command.js';

/** A `--queue` Redis that answered: its URL, and the form of it that may be printed (no password). */
export interface QueueConnection {
  url: string;
  shown: string;
}

/**
 * The Redis of `--queue URL` (`run --queue`, `worker`), checked before the command prints or writes
 * anything: a malformed URL is a usage mistake (exit 2); an unreachable Redis is one line naming the URL
 * as shown and null (the caller exits 1). The Redis client is loaded only here, when a queue is asked for.
 */
export async function connectQueue(command: string, raw: string): Promise<QueueConnection | null> {
  const { parseQueueUrl, probeRedis } = await import('../queue/redis-url.js');
  const url = parseQueueUrl(raw);
  if (!url.ok) throw new UsageError(url.message);
  const unreachable = await probeRedis(url.url);
  if (unreachable === null) return { url: url.url, shown: url.shown };
  console.error(`parley ${command}: cannot reach Redis at ${url.shown} (${unreachable})`);
  return null;
}
