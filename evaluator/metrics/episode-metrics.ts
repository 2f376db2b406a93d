import type { EpisodeRecord, Mode, TaskKind } from '../../protocol/index.js';
import { auctionMetrics, splitMetrics, type AuctionMetrics, type SplitMetrics } from './groups.js';
import type { Scenario } from '../../scenarios/model.js';
import type { DimensionName } from '../dimensions.js';
import { isSotopia } from '../rubric/builtin.js';
import { judgeVariants, readEvaluation, type EpisodeJudgement, type Evaluation, type EvaluationError, type JudgeInfo } from '../evaluation.js';
import { craigslistMetrics, type CraigslistMetrics } from './craigslist.js';
import { mutualFriendsMetrics, type MutualFriendsMetrics, type MutualFriendsSuccessRule } from './mutual-friends.js';
import { allSeatMetrics, type SeatMetrics } from './seat-metrics.js';

/** A seat's judge result as the report reads it. */
export type SeatScoresView = { ok: true; scores: Record<string, number> } | { ok: false; error: EvaluationError };

/** Everything the report, the export and the aggregation need from one episode. */
export interface EpisodeMetrics {
  runId: string;
  episodeId: string;
  scenarioId: string;
  envId: string;
  pairId: string;
  repeat: number;
  mode: Mode;
  kind: TaskKind;
  /** Scenario subsets (SOTOPIA hard, …); empty when the scenario is not in the run directory. */
  subsets: string[];
  /** Who generated the dialogue: `writer <model>` in script mode, `<model A> × <model B>` otherwise. */
  models: string;
  status: 'ok' | 'failed';
  termination: string;
  /** Moves in the episode (turns with an action). */
  moves: number;
  seats: SeatMetrics[];
  /** Mean over seats of words per turn, ignoring seats that never spoke; null if nobody spoke. */
  wordsPerTurn: number | null;
  repetition: number | null;
  nonverbalShare: number | null;
  /**
   * Task success; null for open scenarios. Craigslist: the deal from explicit moves. MutualFriends: both
   * seats selected the shared friend, or in `paper` runs the paper's rule (the friend was named).
   */
  success: boolean | null;
  mutualFriends: MutualFriendsMetrics | null;
  craigslist: CraigslistMetrics | null;
  /** Group tasks: the auction's sale (price, winning seat) or the split's passed shares (groups.ts). */
  auction: AuctionMetrics | null;
  split: SplitMetrics | null;
  judge: JudgementView | null;
  /**
   * One judgement per rubric other than SOTOPIA-EVAL (by name and hash): the rubric's latest
   * full-background judgement (a blind one only when it has no full one). The report's per-rubric tables
   * read these, so a rubric's scores stay in the report when a SOTOPIA-EVAL judgement becomes `judge`.
   */
  otherRubrics: JudgementView[];
}

/** A judgement as the report reads it: who judged, and each seat's scores or error. */
export interface JudgementView {
  info: JudgeInfo;
  seats: Record<string, SeatScoresView>;
}

/** A stored judgement as the report reads it. */
export function judgementView(j: EpisodeJudgement): JudgementView {
  const seats: Record<string, SeatScoresView> = {};
  for (const [seat, s] of Object.entries(j.seats)) {
    seats[seat] = s.ok ? { ok: true, scores: Object.fromEntries(Object.entries(s.scores).map(([d, x]) => [d, x.score])) } : { ok: false, error: s.error };
  }
  return { info: j.judge, seats };
}

/** Per non-default rubric, its latest full-background judgement (else its latest blind one). */
function otherRubricJudgements(evaluation: Evaluation | null): JudgementView[] {
  const best = new Map<string, EpisodeJudgement>();
  for (const j of judgeVariants(evaluation).values()) {
    const r = j.judge.rubric;
    if (!r || isSotopia(r)) continue;
    const key = `${r.name}@${r.hash}`;
    const held = best.get(key);
    const rank = (x: EpisodeJudgement) => [x.judge.visibility === 'full' ? 1 : 0, x.evaluatedAt] as const;
    if (!held) best.set(key, j);
    else {
      const [fa, ta] = rank(j);
      const [fb, tb] = rank(held);
      if (fa > fb || (fa === fb && ta >= tb)) best.set(key, j);
    }
  }
  return [...best.values()].map(judgementView);
}

/** The model (or policy) that produced a seat's or the writer's moves. */
function who(x: { policy: string; model?: string | undefined } | undefined): string {
  if (!x) return '?';
  return x.model ?? x.policy;
}

/** Label of the generators of an episode, for grouping by model pair. */
export function modelsLabel(episode: EpisodeRecord): string {
  if (episode.mode === 'script') return `writer ${who(episode.scriptWriter)}`;
  return episode.seats.map((s) => who(s)).join(' × ');
}

function meanOf(values: (number | null)[]): number | null {
  const v = values.filter((x): x is number => x !== null);
  return v.length ? v.reduce((a, b) => a + b, 0) / v.length : null;
}

/** How an episode's run was simulated, as far as the metrics care. */
export interface EpisodeMetricsOptions {
  /** How MutualFriends success is read: the run protocol's scoring default (`paper`: the friend named; see `MutualFriendsSuccessRule`). */
  mutualFriendsSuccess?: MutualFriendsSuccessRule;
}

/** Computes every rule metric (and reads the stored judge scores) of one episode. */
export function episodeMetrics(episode: EpisodeRecord, scenario: Scenario | undefined, options: EpisodeMetricsOptions = {}): EpisodeMetrics {
  const seats = allSeatMetrics(episode);
  const mf = mutualFriendsMetrics(episode, scenario, options.mutualFriendsSuccess ?? 'moves');
  const cl = craigslistMetrics(episode, scenario);
  const evaluation = readEvaluation(episode.evaluation);
  const judge: EpisodeMetrics['judge'] = evaluation?.judge ? judgementView(evaluation.judge) : null;
  return {
    runId: episode.runId,
    episodeId: episode.episodeId,
    scenarioId: episode.scenarioId,
    envId: scenario?.envId ?? episode.scenarioId,
    pairId: episode.pairId,
    repeat: episode.repeat,
    mode: episode.mode,
    kind: episode.outcome.kind,
    subsets: scenario?.subsets ?? [],
    models: modelsLabel(episode),
    status: episode.status,
    termination: episode.termination.reason,
    moves: episode.turns.filter((t) => t.action !== null).length,
    seats,
    wordsPerTurn: meanOf(seats.map((s) => s.wordsPerTurn)),
    repetition: meanOf(seats.map((s) => s.repetition)),
    nonverbalShare: meanOf(seats.map((s) => s.nonverbalShare)),
    success: episode.outcome.kind === 'open' ? null : mf ? mf.success : episode.outcome.success,
    mutualFriends: mf,
    craigslist: cl,
    auction: auctionMetrics(episode, scenario),
    split: splitMetrics(episode),
    judge,
    otherRubrics: otherRubricJudgements(evaluation),
  };
}

/**
 * Mean SOTOPIA-EVAL score of a dimension over the episode's scored seats; null if none was, or if the
 * episode's judgement is on another rubric (a rubric's `goal` is not SOTOPIA-EVAL's goal: never mixed).
 */
export function episodeScore(m: EpisodeMetrics, dim: DimensionName): number | null {
  if (!m.judge || !isSotopia(m.judge.info.rubric)) return null;
  return rubricEpisodeScore(m, dim);
}

/** Mean score of any dimension of a judgement (default: the episode's main one) over its scored seats that have it; null if none. */
export function rubricEpisodeScore(m: EpisodeMetrics, dim: string, judgement: JudgementView | null = m.judge): number | null {
  if (!judgement) return null;
  return meanOf(Object.values(judgement.seats).map((s) => (s.ok ? (s.scores[dim] ?? null) : null)));
}
