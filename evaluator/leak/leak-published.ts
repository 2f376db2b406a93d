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
  /**
   * The same advantage read from the other half of the same table, when the paper contradicts its own
   * labels there (Table 2: §4.3's prose describes the MutualFriends and Craigslist halves the other way
   * round): both are shown, and the contradiction said, rather than one picked silently.
   */
  otherHalf?: { modeNumber: PublishedNumber; agentsNumber: PublishedNumber; advantage: number };
}

/** Whether two published numbers come from a table whose halves the paper's own text contradicts (their notes say so). */
// Non-ASCII as \u escapes: the CLI bundle stays ASCII, read as a one-byte string (test/cli-bundle.test.ts).
const contested = (n: PublishedNumber) => /prose of \u00a74\.3 describes the opposite/.test(n.note ?? '');

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
        const gap = (m: PublishedNumber, a: PublishedNumber) => (metric === 'firstMention' ? a.value - m.value : m.value - a.value);
        const entry: PublishedAdvantage = { mode, metric, modeNumber, agentsNumber, advantage: gap(modeNumber, agentsNumber) };
        if (contested(modeNumber) || contested(agentsNumber)) {
          const other = (m: 'agents' | LeakedMode, label: string) => paperNumberFor(published, metric, { mode: m, models: label, subset: 'craigslist_bargains' });
          const om = other(mode, modeLabel);
          const oa = labels('agents').map((l) => other('agents', l)).find((n) => n !== null) ?? null;
          if (om && oa && om.model === oa.model) entry.otherHalf = { modeNumber: om, agentsNumber: oa, advantage: gap(om, oa) };
        }
        out.push(entry);
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
  const main = `The paper's own MutualFriends ${what} advantage of ${p.mode} over agents (${p.modeNumber.model}, with the leak): ${order} = ${p.advantage.toFixed(2)}, as printed (${where}).`;
  if (!p.otherHalf) return main;
  const o = p.otherHalf;
  const otherOrder = p.metric === 'goal' ? `${o.modeNumber.value} − ${o.agentsNumber.value}` : `${o.agentsNumber.value} − ${o.modeNumber.value}`;
  return (
    `${main} The paper contradicts that table's labels: §4.3's prose describes its MutualFriends and Craigslist halves the other way round, ` +
    `and read from the half printed under Craigslist the advantage is ${otherOrder} = ${o.advantage.toFixed(2)} (${o.modeNumber.where}); both are shown, neither is chosen.`
  );
}
