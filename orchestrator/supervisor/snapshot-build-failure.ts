import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';

/**
 * A failed build of the agent's start-up snapshot, remembered beside the blob it did not make
 * (`<blob>.failed`), so that later pool starts go straight to the plain bundle instead of paying the build
 * (~1 s of CPU) again each time. The marker sits in the snapshot bundle's cache directory, so it is keyed by
 * the blob's cache key: a source edit, another Node or esbuild version, or other V8 flags get a fresh
 * directory or blob name, and with it a fresh try.
 *
 * What is remembered, and for how long, is chosen so that a passing cause never turns snapshots off for good:
 * - a builder that exits with an error, or a process from the new blob that exits or crashes before `ready`,
 *   says something about the code or the blob: remembered, for an hour (a misjudged passing cause then costs
 *   at most an hour of slower starts, and a lasting one a build an hour);
 * - a timeout or a kill from outside (SIGKILL, SIGTERM, SIGINT, SIGHUP: a loaded machine, a user's Ctrl-C)
 *   and a file system error (a full disk) say nothing about the blob: not remembered, the next start tries.
 * A cache that cannot be written at all is found before the build (worker-snapshot.ts creates the blob's
 * file first), at no cost, so it needs no marker (it could not hold one).
 */

/** How long a remembered failure keeps pool starts from building the blob again. */
export const FAILED_BUILD_RETRY_MS = 3600 * 1000;

/** How far in the future a marker may look and still count as written now (file times vs Date.now()). */
const CLOCK_SLACK_MS = 1_000;

const markerOf = (blob: string) => `${blob}.failed`;

/** Signals sent from outside the build (our own timeouts, the OOM killer, a user): no verdict on the blob. */
const OUTSIDE_SIGNALS = new Set(['SIGKILL', 'SIGTERM', 'SIGINT', 'SIGHUP']);

/** A failure of the build whose cause may well be gone at the next pool start. */
export function passingCause(err: unknown): boolean {
  const e = err as { code?: unknown; signal?: unknown; killed?: unknown; passing?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (e.passing === true || e.killed === true) return true;
  if (typeof e.signal === 'string' && OUTSIDE_SIGNALS.has(e.signal)) return true;
  // A system error (ENOSPC, EIO, EMFILE): the builder's own exit has a numeric code instead.
  return typeof e.code === 'string';
}

/**
 * The reason a build of `blob` failed less than FAILED_BUILD_RETRY_MS ago (a line for the log), or null.
 * The marker is our own file in the cache; its text is only shown, cut to one short line.
 */
export function recentBuildFailure(blob: string, now = Date.now()): string | null {
  try {
    const age = now - statSync(markerOf(blob)).mtimeMs;
    // mtimeMs carries sub-millisecond digits and Date.now() does not, so a marker written this millisecond
    // can look up to 1 ms in the future: only one dated clearly ahead (a clock set back) is ignored.
    if (age < -CLOCK_SLACK_MS || age >= FAILED_BUILD_RETRY_MS) return null;
    const reason = readFileSync(markerOf(blob), 'utf8').split('\n')[0]!.slice(0, 200);
    return `its build failed ${Math.round(Math.max(0, age) / 60_000)} min ago and is tried again after ${FAILED_BUILD_RETRY_MS / 60_000} min: ${reason}`;
  } catch {
    return null;
  }
}

/** Remembers a failed build of `blob` unless its cause may pass; never throws (a cache may be read-only). */
export function noteBuildFailure(blob: string, err: unknown): void {
  if (passingCause(err)) return;
  try {
    writeFileSync(markerOf(blob), `${String((err as Error)?.message ?? err).split('\n')[0]}\n`);
  } catch {
    // Not writable: later starts find that out before building, at no cost.
  }
}

/** A blob was built: whatever failed before is forgotten. */
export function clearBuildFailure(blob: string): void {
  rmSync(markerOf(blob), { force: true });
}
