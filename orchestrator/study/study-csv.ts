import { join } from 'node:path';
import { writeFileAtomicSync } from '../../disk/atomic-write.js';
import type { Participant } from './participants.js';
import type { StudyEpisode } from './study-episodes.js';
import type { Study } from './study-file.js';

/**
 * The study's two tables, rewritten whole after every episode, survey and withdrawal:
 * `study-participants.csv` (one row per participant: consent version, episodes, AI-fallback flags, time,
 * attention failures, survey answers) and `study-episodes.csv` (one row per episode). Participants typed
 * nothing here but their id and survey choices, yet every cell is written so a spreadsheet never runs
 * it as a formula (CSV injection): a cell starting with = + - @ or a control character gets a leading '.
 */
export const PARTICIPANTS_CSV = 'study-participants.csv';
export const EPISODES_CSV = 'study-episodes.csv';

/** One CSV cell: formula-safe, then quoted as RFC 4180 says. */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  let s = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]|^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const row = (cells: ReadonlyArray<string | number | boolean | null | undefined>) => `${cells.map(csvCell).join(',')}\r\n`;

export function participantsCsv(study: Study, people: readonly Participant[]): string {
  const items = study.survey.map((i) => i.id);
  const head = ['participant_id', 'pid', 'state', 'consent_version', 'consented_at', 'sessions', 'episodes', 'partners', 'ai_fallback', 'disconnected', 'completed_at', 'minutes', 'attention_failures', ...items.map((i) => `survey_${i}`)];
  let out = row(head);
  for (const p of people) {
    const last = p.survey[p.survey.length - 1]?.answers ?? {};
    const minutes = p.completedAt ? Math.round(((Date.parse(p.completedAt) - Date.parse(p.consent.at)) / 60_000) * 100) / 100 : null;
    out += row([
      p.id, p.pid, p.state, p.consent.version, p.consent.at, p.sessions,
      p.episodes.map((e) => e.episodeId).join(' '),
      p.episodes.map((e) => e.partner).join(' '),
      p.episodes.some((e) => e.partner === 'ai-fallback'),
      p.episodes.some((e) => e.disconnected !== undefined),
      p.completedAt ?? null, minutes, p.attentionFailures,
      ...items.map((i) => last[i] ?? null),
    ]);
  }
  return out;
}

export function episodesCsv(rows: readonly StudyEpisode[]): string {
  let out = row(['episode_id', 'scenario_id', 'mode', 'participants', 'seats', 'partner', 'ai_fallback', 'partner_policy', 'started_at', 'ended_at', 'termination', 'disconnected', 'status']);
  for (const e of rows) {
    out += row([
      e.episodeId, e.scenarioId, e.mode,
      e.people.map((p) => p.id).join(' '), e.people.map((p) => p.seat).join(' '),
      e.partner, e.partner === 'ai-fallback', e.partnerPolicy ?? null,
      e.startedAt, e.endedAt, e.termination,
      e.disconnected.map((d) => `${d.seat}:${d.handled}`).join(' '), e.status,
    ]);
  }
  return out;
}

export function writeStudyCsv(dir: string, study: Study, people: readonly Participant[], episodes: readonly StudyEpisode[]): void {
  writeFileAtomicSync(join(dir, PARTICIPANTS_CSV), participantsCsv(study, people));
  writeFileAtomicSync(join(dir, EPISODES_CSV), episodesCsv(episodes));
}
