import type { EpisodeMetrics } from '../metrics/episode-metrics.js';
import { paperNumberFor } from '../paper/beside.js';
import type { PublishedNumber, PublishedNumbers } from '../paper/published.js';
import { LEAKED_MODES, type LeakMetric, type LeakedMode } from './leak-effect.js';

/**
 * The advantage the paper itself printed for MutualFriends — measured on runs that had the leak, since
 * SOTOPIA's code sent the answer — next to the leak report, so a reader sees which published gap the
 * explained share bears on. Only numbers the paper prints (published.json), matched to the leaky run's
 * models as the "Beside the paper" section matches them.
 */
export interface PublishedAdvantage {
  mode: LeakedMode;
  metric: Extract<LeakMetric, 'goal' | 'firstMention'>;
  modeNumber: PublishedNumber;
  agentsNumber: PublishedNumber;
  /** In the leak report's direction: mode − agents for the goal, agents − mode for the first mention. */
  advantage: number;
}

/** The paper's MutualFriends advantages that match the leaky run's generators. */
export function publishedAdvantages(leakyRun: readonly EpisodeMetrics[], published: PublishedNumbers): PublishedAdvantage[] {
  const labels = (mode: string) => [...new Set(leakyRun.filter((m) => m.mode === mode && m.kind === 'mutual_friends').map((m) => m.models))];
  const out: PublishedAdvantage[] = [];
  for (const mode of LEAKED_MODES) {
    for (const metric of ['goal', 'firstMention'] as const) {
      for (const modeLabel of labels(mode)) {
        const modeNumber = paperNumberFor(published, metric, { mode, models: modeLabel, subset: 'mutual_friends' });
        const agentsNumber = labels('agents').map((l) => paperNumberFor(published, metric, { mode: 'agents', models: l, subset: 'mutual_friends' })).find((n) => n !== null) ?? null;
        if (!modeNumber || !agentsNumber || modeNumber.model !== agentsNumber.model) continue;
        const advantage = metric === 'firstMention' ? agentsNumber.value - modeNumber.value : modeNumber.value - agentsNumber.value;
        out.push({ mode, metric, modeNumber, agentsNumber, advantage });
        break;
      }
    }
  }
  return out;
}

/** One sentence per published advantage (the paper's words about where each number is printed are data: the caller escapes). */
export function publishedAdvantageSentence(p: PublishedAdvantage): string {
  const what = p.metric === 'goal' ? 'goal' : 'first mention';
  const order = p.metric === 'goal' ? `${p.modeNumber.value} − ${p.agentsNumber.value}` : `${p.agentsNumber.value} − ${p.modeNumber.value}`;
  const where = p.modeNumber.where === p.agentsNumber.where ? p.modeNumber.where : `${p.modeNumber.where}; ${p.agentsNumber.where}`;
  return `The paper's own MutualFriends ${what} advantage of ${p.mode} over agents (${p.modeNumber.model}, with the leak): ${order} = ${p.advantage.toFixed(2)}, as printed (${where}).`;
}
