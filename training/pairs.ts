import type { ChatMessage } from '../llm/index.js';
import { buildExamples, type BuildOptions } from './examples.js';
import { episodeClean } from './select.js';
import type { SourceEpisode } from './source.js';

/**
 * Preference pairs from forks (`parley pairs`, issue 40). Siblings — forks of one parent episode at one
 * turn — share every frame before the fork turn, so the seat that moves at that turn was sent the same
 * prompt in each; they differ only in what came after. Two siblings whose episode scores differ by at least
 * the margin make a pair: that prompt, the better sibling's move, the worse one's.
 *
 * The prompt and the moves come from `buildExamples` (the same code `parley export` uses: the seat's view
 * replayed from its ledger, rendered by the renderer the live LLM policy calls), so a pair's prompt equals the
 * seat's cassette request at the fork turn byte for byte.
 */

/** One side of a pair: which fork episode it came from, its score, and the seat's move as the reply text. */
export interface PairSide {
  runDir: string;
  episodeId: string;
  score: number;
  reply: string;
}

export interface PreferencePair {
  parentRun: string;
  parentEpisode: string;
  /** The fork turn: the seat's move at it is what the pair compares. */
  turn: number;
  scenarioId: string;
  seat: string;
  /** What the seat's agent was sent at the fork turn (every sibling was sent exactly this). */
  prompt: ChatMessage[];
  chosen: PairSide;
  rejected: PairSide;
  margin: number;
}

/** Why a fork episode or a pair of siblings gave no pair; every reason is counted, none is silent. */
export const PAIR_EXCLUSION = {
  notFork: 'not a forked episode',
  errors: 'episode has errors',
  notEvaluated: 'episode not evaluated',
  noScore: 'seat has no score on the chosen dimension (evaluation failed or dimension not scored)',
  noMove: 'seat did not move at the fork turn',
  alone: 'no sibling with the same prompt',
  belowMargin: 'sibling pairs below --min-margin',
  sameReply: 'sibling pairs with the same move',
} as const;
export type PairExclusion = keyof typeof PAIR_EXCLUSION;

export interface PairOptions extends Pick<BuildOptions, 'templateFor' | 'readLedger' | 'limitsOf'> {
  seat: string;
  /** The score dimension (`goal`, or any rubric dimension a judge scored). */
  by: string;
  minMargin: number;
}

export interface PairsResult {
  pairs: PreferencePair[];
  /** Sibling groups (same parent episode, fork turn and prompt) with at least two scored siblings. */
  groups: number;
  /** Fork episodes that took part in a group. */
  siblings: number;
  excluded: Partial<Record<PairExclusion, number>>;
}

interface Sibling {
  source: SourceEpisode;
  score: number;
  prompt: ChatMessage[];
  reply: string;
}

export type PairsOutcome = ({ ok: true } & PairsResult) | { ok: false; message: string };

/** The seat's scored move at the fork turn, with its prompt; or why there is none. */
function siblingOf(source: SourceEpisode, o: PairOptions): Sibling | PairExclusion | { message: string } {
  const { record } = source;
  if (!record.fork) return 'notFork';
  if (!episodeClean(record)) return 'errors';
  if (!source.scores) return 'notEvaluated';
  const s = source.scores[o.seat];
  const score = s?.ok ? s.scores[o.by] : undefined;
  if (typeof score !== 'number') return 'noScore';
  const built = buildExamples({ source, seat: o.seat }, { ...o, view: 'agents' });
  if (!built.ok) return { message: built.message };
  const at = built.examples.find((e) => e.turn === record.fork!.at);
  if (!at) return 'noMove';
  return { source, score, prompt: at.messages.slice(0, -1), reply: at.messages.at(-1)!.content };
}

/**
 * Groups fork episodes by (parent run, parent episode, fork turn, the seat's prompt at that turn), ranks
 * each group's siblings by the seat's score and keeps every sibling pair whose margin is at least
 * `minMargin` and whose moves differ. Pairs come out in a fixed order: by group, then best margin first.
 */
export function preferencePairs(sources: readonly SourceEpisode[], o: PairOptions): PairsOutcome {
  const excluded: PairsResult['excluded'] = {};
  const drop = (r: PairExclusion, n = 1) => void (excluded[r] = (excluded[r] ?? 0) + n);
  const groups = new Map<string, Sibling[]>();
  for (const source of sources) {
    const sib = siblingOf(source, o);
    if (typeof sib === 'string') {
      drop(sib);
      continue;
    }
    if ('message' in sib) return { ok: false, message: sib.message };
    const f = source.record.fork!;
    const key = JSON.stringify([f.parentRun, f.parentEpisode, f.at, sib.prompt]);
    (groups.get(key) ?? groups.set(key, []).get(key)!).push(sib);
  }
  const pairs: PreferencePair[] = [];
  let siblings = 0;
  let kept = 0;
  for (const group of [...groups.values()].sort((a, b) => groupOrder(a[0]!).localeCompare(groupOrder(b[0]!)))) {
    if (group.length < 2) {
      drop('alone');
      continue;
    }
    kept++;
    siblings += group.length;
    group.sort((a, b) => b.score - a.score || a.source.record.episodeId.localeCompare(b.source.record.episodeId));
    const mine: PreferencePair[] = [];
    for (let i = 0; i < group.length; i++) {
      for (let j = i + 1; j < group.length; j++) {
        const [hi, lo] = [group[i]!, group[j]!];
        const margin = hi.score - lo.score;
        if (margin < o.minMargin) drop('belowMargin');
        else if (hi.reply === lo.reply) drop('sameReply');
        else mine.push(pairOf(hi, lo, margin, o.seat));
      }
    }
    pairs.push(...mine.sort((a, b) => b.margin - a.margin));
  }
  return { ok: true, pairs, groups: kept, siblings, excluded };
}

const groupOrder = (s: Sibling) => `${s.source.record.fork!.parentRun}\u0000${s.source.record.fork!.parentEpisode}\u0000${String(s.source.record.fork!.at).padStart(6, '0')}`;

function pairOf(hi: Sibling, lo: Sibling, margin: number, seat: string): PreferencePair {
  const f = hi.source.record.fork!;
  const side = (s: Sibling): PairSide => ({ runDir: s.source.runDir, episodeId: s.source.record.episodeId, score: s.score, reply: s.reply });
  return { parentRun: f.parentRun, parentEpisode: f.parentEpisode, turn: f.at, scenarioId: hi.source.record.scenarioId, seat, prompt: hi.prompt, chosen: side(hi), rejected: side(lo), margin };
}

/** The margins as a histogram: one bucket per whole number (`[1, 2)`), in order. */
export function marginHistogram(pairs: readonly PreferencePair[]): Array<{ from: number; count: number }> {
  const counts = new Map<number, number>();
  for (const p of pairs) counts.set(Math.floor(p.margin), (counts.get(Math.floor(p.margin)) ?? 0) + 1);
  return [...counts].sort(([a], [b]) => a - b).map(([from, count]) => ({ from, count }));
}
