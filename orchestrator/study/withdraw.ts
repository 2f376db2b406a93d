import { appendFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { readEpisodes, rewriteEpisodes, type RunLock } from '../../run-dir/index.js';
import { ParticipantStore } from './participants.js';
import { writeStudyCsv } from './study-csv.js';
import { readStudyEpisodes, writeStudyEpisodes } from './study-episodes.js';
import type { Study } from './study-file.js';

export const WITHDRAWALS_FILE = 'study-withdrawals.jsonl';

/** An episode id as this project makes them, checked before it names a directory to remove (the run directory is untrusted). */
const EPISODE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;

export type Withdrawal = { ok: true; participant: string; episodes: string[] } | { ok: false; message: string };

/**
 * `parley study … --withdraw PID`, under the run directory's lock (the study server must be stopped):
 * the participant's consent record, answers and survey go; each episode they sat in loses its record,
 * its ledgers and its text, and stays only as a `withdrawn` stub in study-episodes.jsonl (ids, times,
 * no words); the PID is kept only as a keyed hash, so it cannot enrol again; the removal is logged in
 * study-withdrawals.jsonl (the participant's study id, never the PID).
 */
export function withdrawParticipant(lock: RunLock, study: Study, pid: string, now = new Date()): Withdrawal {
  const dir = lock.paths.dir;
  const store = new ParticipantStore(dir);
  const p = store.findByPid(pid);
  if (!p) return { ok: false, message: store.isWithdrawn(pid) ? 'this participant has already withdrawn' : 'no participant with this id in the study directory' };
  const ids = new Set(p.episodes.map((e) => e.episodeId).filter((id) => EPISODE_ID.test(id) && !id.includes('..')));
  const read = readEpisodes(lock.paths);
  if (read.unreadable) return { ok: false, message: read.unreadable };
  rewriteEpisodes(lock, read.rows.filter((r) => !ids.has(r.record.episodeId)).map((r) => r.raw));
  for (const id of ids) rmSync(lock.paths.episodeLedgersDir(id), { recursive: true, force: true });
  const rows = readStudyEpisodes(dir).map((e) =>
    ids.has(e.episodeId) ? { ...e, people: e.people.filter((x) => x.id !== p.id), termination: 'withdrawn', disconnected: [], status: 'withdrawn' as const } : e,
  );
  writeStudyEpisodes(dir, rows);
  store.remove(p);
  appendFileSync(join(dir, WITHDRAWALS_FILE), `${JSON.stringify({ at: now.toISOString(), participant: p.id, episodes: [...ids] })}\n`);
  writeStudyCsv(dir, study, [...store.byId.values()], rows);
  return { ok: true, participant: p.id, episodes: [...ids] };
}
