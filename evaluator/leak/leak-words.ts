import { mdText } from '../report/markdown-text.js';
import type { Estimate, LeakEffect, LeakMetric, LeakedMode } from './leak-effect.js';

/**
 * The leak effect in plain words: one sentence per mode and metric, with its interval, saying plainly
 * when a number is not defined or has no interval and why. The sentences hold only this file's words and
 * numbers; caveats quote recorded values and are escaped here.
 */

const METRIC_WORDS: Record<LeakMetric, string> = {
  goal: 'Goal (the judge, 0–10)',
  success: 'MutualFriends success (the shared friend named, appendix G)',
  firstMention: 'First mention of the shared friend (0 = first move, 1 = last)',
};

const MODE_WORDS: Record<LeakedMode, string> = { script: 'script mode', mindreaders: 'mindreaders mode' };

const num = (v: number) => (Object.is(Math.round(v * 100), -0) ? 0 : v).toFixed(2);
const pct = (v: number) => `${Math.round(v * 100)}%`;

/** `1.20 [0.40, 2.00]`, or `1.20` when there is no interval. */
function withInterval(e: Estimate, f: (v: number) => string = num): string {
  return e.lo !== null && e.hi !== null ? `${f(e.value)} [${f(e.lo)}, ${f(e.hi)}]` : f(e.value);
}

/** The estimate with its sign turned: a negative advantage is said as the other way by a positive amount. */
function flipped(e: Estimate): Estimate {
  return { ...e, value: -e.value, lo: e.hi === null ? null : -e.hi, hi: e.lo === null ? null : -e.lo };
}

/**
 * What the mode's advantage is, in the metric's own direction, with the sign read into the words: a
 * negative advantage is "below … by 3.60", never "above … by -3.60".
 */
function advantagePhrase(metric: LeakMetric, mode: LeakedMode, e: Estimate): string {
  const behind = e.value < 0;
  const amount = withInterval(behind ? flipped(e) : e);
  if (metric === 'firstMention') return `${MODE_WORDS[mode]} names the shared friend ${behind ? 'later' : 'earlier'} than agents mode by ${amount} of the conversation`;
  if (metric === 'success') return `${MODE_WORDS[mode]}'s success rate is ${behind ? 'below' : 'above'} agents mode's by ${amount}`;
  return `${MODE_WORDS[mode]} scores ${behind ? 'below' : 'above'} agents mode by ${amount}`;
}

/** One sentence (a few clauses) for one mode and metric. */
export function leakSentence(e: LeakEffect): string {
  const head = `${METRIC_WORDS[e.metric]}, ${e.mode} against agents on MutualFriends: `;
  const unjudged = e.metric === 'goal' ? ' (judged yet? parley eval scores the goal)' : e.metric === 'firstMention' ? ' (the shared friend was never named)' : '';
  const missing = (side: string) => `not defined: the ${side} run has no MutualFriends episode with this metric in ${MODE_WORDS[e.mode]} or in agents mode${unjudged}.`;
  if (!e.leaky) return head + missing('leaky');
  const leaky = `with the leaked answer ${advantagePhrase(e.metric, e.mode, e.leaky)} (${e.leaky.nMode} ${e.mode}, ${e.leaky.nAgents} agents episodes)`;
  if (!e.corrected) return `${head}${leaky}; the explained share is ${missing('corrected')}`;
  // The same direction as the leaky clause when the signs agree; else said in full, so no "by -1.00" is left.
  const sameWay = (e.corrected.value < 0) === (e.leaky.value < 0);
  const corrected = sameWay
    ? `without it by ${withInterval(e.leaky.value < 0 ? flipped(e.corrected) : e.corrected)} (${e.corrected.nMode}, ${e.corrected.nAgents})`
    : `without it ${advantagePhrase(e.metric, e.mode, e.corrected)} (${e.corrected.nMode}, ${e.corrected.nAgents})`;
  const parts = [`${head}${leaky}, and ${corrected}.`];
  if (e.drop) {
    const d = e.drop;
    parts.push(d.value >= 0 ? `Closing the leak lowers the advantage by ${withInterval(d)}.` : `Closing the leak raises the advantage by ${withInterval({ value: -d.value, lo: d.hi === null ? null : -d.hi, hi: d.lo === null ? null : -d.lo })}.`);
  }
  if (e.note === 'no_leaky_advantage' || !e.share) {
    parts.push('How much of the advantage the leaked answer explains is not defined: no advantage in the leaky run.');
  } else if (e.note === 'unbounded') {
    parts.push(`The leaked answer explains ${pct(e.share.value)} of the advantage, with no interval: the leaky run's own advantage is not clearly above 0 (its resamples reach 0 or below), so the share could be anything.`);
  } else if (e.note === 'too_few') {
    parts.push(`The leaked answer explains ${pct(e.share.value)} of the advantage, with no interval: a mode has fewer than 2 episodes with this metric.`);
  } else {
    parts.push(`The leaked answer explains ${withInterval(e.share, pct)} of the advantage.`);
  }
  return parts.join(' ');
}

/** What is off about the pair of runs as a leak comparison (empty when nothing is). */
export interface LeakCaveats {
  /** Modes the leaky run did not leak to, or the corrected run did. */
  notALeakComparison: { mode: LeakedMode; why: string }[];
  /** Other differences that blur the comparison (protocols, judges). */
  other: string[];
}

/** The section's lines (Markdown); `leakyName` and `correctedName` must already be escaped for Markdown. */
export function leakSectionLines(effects: readonly LeakEffect[], caveats: LeakCaveats, leakyName: string, correctedName: string, resamples: number): string[] {
  const lines = ['## What the leaked answer explains', ''];
  lines.push(
    `SOTOPIA's code sent the MutualFriends answer (the judge-only line naming the common friend) to the script writer and the mindreaders. ` +
      `${leakyName} is the run with that leak, ${correctedName} the run without it. For each mode, the advantage is its MutualFriends mean minus agents mode's, over ok episodes with a value (a goal score; a first mention only where the friend was named) ` +
      `(for the first mention, agents minus the mode: earlier is the advantage); the share the leak explains is (advantage with the leak − advantage without) / advantage with the leak. ` +
      `Intervals are 95% percentile bootstrap over episodes (${resamples} seeded resamples, each mode of each run resampled on its own).`,
    '',
  );
  // Caveats quote run.json values and judge specs: escaped.
  for (const c of caveats.notALeakComparison) lines.push(`- **Not a leak comparison for ${c.mode}:** ${mdText(c.why)}`);
  for (const o of caveats.other) lines.push(`- **Caution:** ${mdText(o)}`);
  if (caveats.notALeakComparison.length || caveats.other.length) lines.push('');
  for (const e of effects) lines.push(`- ${leakSentence(e)}`);
  lines.push('');
  return lines;
}
