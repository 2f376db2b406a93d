import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The secret of a watched run: 24 random bytes, base64url. The watch page and its socket.io namespace
 * open only with it; seat tokens are another secret altogether and open neither.
 */
export function newWatchKey(): string {
  return randomBytes(24).toString('base64url');
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** Whether `given` is the key, compared in constant time (hashed first, so the lengths match too). */
export function watchKeyMatches(key: string, given: unknown): boolean {
  if (typeof given !== 'string' || !given || given.length > 256) return false;
  return timingSafeEqual(digest(key), digest(given));
}

/** The gate of the watch page and namespace (web-routes.ts, watch-endpoint.ts) for one run's key. */
export const watchGate = (key: string) => ({ allows: (given: unknown) => watchKeyMatches(key, given) });
