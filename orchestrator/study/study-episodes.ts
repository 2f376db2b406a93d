import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { writeFileAtomicSync } from '../../disk/atomic-write.js';

/**
 * What a study adds to each episode record of its run directory (`study-episodes.jsonl`, one line per
 * finished episode): which participants sat where, and whether the other seat was a person or the
 * partner policy (`ai-fallback`). A withdrawn participant's episodes keep only a stub here (no text
 * anywhere: their records and ledgers are removed).
 */
export const STUDY_EPISODES_FILE = 'study-episodes.jsonl';

export const StudyEpisode = z.object({
  episodeId: z.string(),
  scenarioId: z.string(),
  mode: z.string(),
  /** Participant ids (never PIDs) by seat. */
  people: z.array(z.object({ id: z.string(), seat: z.string() })),
  partner: z.enum(['person', 'ai-fallback']),
  /** The partner policy's spec, on ai-fallback episodes. */
  partnerPolicy: z.string().optional(),
  startedAt: z.string(),
  endedAt: z.string(),
  termination: z.string(),
  /** Seats whose person did not come back after closing the tab, and what became of them. */
  disconnected: z.array(z.object({ seat: z.string(), handled: z.enum(['leave']) })),
  status: z.enum(['ok', 'failed', 'withdrawn']),
});
export type StudyEpisode = z.infer<typeof StudyEpisode>;

export function appendStudyEpisode(dir: string, e: StudyEpisode): void {
  appendFileSync(join(dir, STUDY_EPISODES_FILE), `${JSON.stringify(StudyEpisode.parse(e))}\n`);
}

export function readStudyEpisodes(dir: string): StudyEpisode[] {
  const file = join(dir, STUDY_EPISODES_FILE);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => StudyEpisode.parse(JSON.parse(l)));
}

export function writeStudyEpisodes(dir: string, rows: readonly StudyEpisode[]): void {
  writeFileAtomicSync(join(dir, STUDY_EPISODES_FILE), rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
}
