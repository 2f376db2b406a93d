import { closeSync, openSync, readSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { EpisodeRecord } from '../../protocol/index.js';
import { readEpisodes, readRunJson, readRunScenarios, RunPaths } from '../../run-dir/index.js';
import { EpisodeHost } from '../run/episode-host.js';
import { newWatchKey, watchGate } from './watch-key.js';
import { WatchHub, type WatchArchive } from './watch-hub.js';

/**
 * `parley watch RUN_DIR`: a finished (or stopped) run in the same watch page a live run has — every
 * episode listed as it ended, the run's summary, and any episode's turns and seats' ledgers read back
 * from the run directory on demand. The directory is untrusted: an episode or seat id names a file only
 * when it has the form the orchestrator writes, and no more than the page's cap is read of a ledger.
 */

/** Episode ids as the orchestrator writes them (`<slug>.<mode>.r<N>.<hash>`, fork ids alike): no `/`, no `..`. */
const EPISODE_ID = /^[\w-]+(?:\.[\w-]+)*$/;
const SEAT_ID = /^[\w-]{1,64}$/;

/** Up to `maxBytes` of a file, as whole lines; `cut` when the file holds more. */
function readLines(file: string, maxBytes: number): { lines: string[]; bytes: number; cut: boolean } {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return { lines: [], bytes: 0, cut: false };
  }
  try {
    const buf = Buffer.alloc(maxBytes + 1);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const text = buf.subarray(0, Math.min(n, maxBytes)).toString('utf8');
    const cut = n > maxBytes;
    // Only whole lines: bytes after the last newline are a torn or cut line.
    const lines = text.split('\n').slice(0, -1).filter(Boolean);
    return { lines, bytes: Buffer.byteLength(lines.join('\n')), cut };
  } finally {
    closeSync(fd);
  }
}

/** The archive of a run directory: an episode's turns from its record, its seats' ledgers from their files. */
function runArchive(paths: RunPaths, records: ReadonlyMap<string, EpisodeRecord>): WatchArchive {
  return (episodeId, maxBytes) => {
    const r = records.get(episodeId);
    if (!r || !EPISODE_ID.test(episodeId)) return null;
    const ledgers: Record<string, string[]> = {};
    let left = maxBytes;
    let cut = false;
    for (const { seat } of r.seats) {
      if (!SEAT_ID.test(seat)) continue;
      const read = readLines(paths.ledgerFile(episodeId, seat), Math.max(0, left));
      ledgers[seat] = read.lines;
      left -= read.bytes;
      cut ||= read.cut;
    }
    return { turns: r.turns, ledgers, cut };
  };
}

/** A watch hub holding a run directory's episodes as they ended. */
export function finishedRunHub(dir: string): { hub: WatchHub; runId: string; episodes: number; badLines: number } {
  const paths = new RunPaths(resolve(dir));
  const runJson = readRunJson(paths);
  if (!runJson.ok) throw new Error(runJson.message);
  const read = readEpisodes(paths);
  const records = new Map(read.rows.map((row) => [row.record.episodeId, row.record] as const));
  if (!runJson.run && !records.size) throw new Error(`${dir} is not a run directory (no run.json, no episodes.jsonl)`);
  const runId = runJson.run?.runId ?? basename(paths.dir);
  const maxTurns = runJson.run?.config.maxTurns ?? 20;
  const hub = new WatchHub(runId, { archive: runArchive(paths, records) });
  // Listed by the scenario's name as a live run lists it (its codename), when scenarios.jsonl has it.
  const scenarios = readRunScenarios(paths);
  const name = (id: string) => (scenarios.ok ? scenarios.scenarios.get(id)?.codename : undefined) ?? id;
  hub.plan([...records.values()].map((r) => ({ episodeId: r.episodeId, mode: r.mode, scenario: name(r.scenarioId), maxTurns })));
  for (const r of records.values()) hub.finished(r);
  hub.end();
  return { hub, runId, episodes: records.size, badLines: read.badLines.length };
}

/**
 * Serves the watch page of a finished run until `signal` aborts; `onUrl` gets the page's URL (with its
 * fresh key) once listening.
 */
export async function serveFinishedRun(dir: string, o: { host?: string; port?: number; signal: AbortSignal; log: (line: string) => void; onUrl: (url: string) => void }): Promise<{ episodes: number }> {
  const { hub, episodes, badLines } = finishedRunHub(dir);
  if (badLines) o.log(`${badLines} line(s) of episodes.jsonl are not records: left out`);
  const key = newWatchKey();
  const host = await EpisodeHost.start({
    log: o.log,
    remote: true,
    browsers: { allowOrigins: [] },
    ...(o.host !== undefined ? { host: o.host } : {}),
    ...(o.port !== undefined ? { port: o.port } : {}),
    watch: { hub, gate: watchGate(key) },
    onListening: (_agentUrl, httpUrl) => o.onUrl(`${httpUrl}/watch?key=${key}`),
  });
  try {
    await new Promise<void>((done) => (o.signal.aborted ? done() : o.signal.addEventListener('abort', () => done(), { once: true })));
  } finally {
    await host.close();
  }
  return { episodes };
}
