import type { OrganiserStats } from '../../protocol/study.js';
import type { StudyDesk } from './desk.js';
import type { Participant, ParticipantStore } from './participants.js';
import type { StudyEpisode } from './study-episodes.js';

export function organiserStats(store: ParticipantStore, finished: readonly StudyEpisode[], inFlight: ReadonlyArray<{ people: readonly unknown[] }>, desk: StudyDesk): OrganiserStats {
  const people = [...store.byId.values()];
  const by: Record<Participant['state'], number> = { waiting: 0, playing: 0, survey: 0, done: 0 };
  for (const p of people) by[p.state]++;
  const times = people.filter((p) => p.completedAt).map((p) => (Date.parse(p.completedAt!) - Date.parse(p.consent.at)) / 60_000);
  const kept = finished.filter((e) => e.status !== 'withdrawn');
  return {
    participants: by,
    refusals: store.refusals,
    waitingNow: desk.lobby.count,
    pairsPlaying: inFlight.filter((e) => e.people.length > 1).length,
    aiFallbackPlaying: inFlight.filter((e) => e.people.length === 1).length,
    episodesCompleted: kept.length,
    aiFallbackEpisodes: kept.filter((e) => e.partner === 'ai-fallback').length,
    meanMinutesPerParticipant: times.length ? Math.round((times.reduce((a, b) => a + b, 0) / times.length) * 100) / 100 : null,
    attentionFailures: { answers: people.reduce((a, p) => a + p.attentionFailures, 0), participants: people.filter((p) => p.attentionFailures > 0).length },
    withdrawals: store.withdrawals,
  };
}
