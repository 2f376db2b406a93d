import type { EpisodeRecord } from '../../protocol/index.js';
import type { Scenario } from '../../scenarios/model.js';
import { mentions } from './text.js';

/**
 * How MutualFriends success is read. `moves` (protocol `parley`): both seats `select`ed the shared friend
 * (the recorded outcome). `paper` (protocol `paper`, which has no task moves): the paper's own definition,
 * appendix G — "the first-mention of the mutual friend's name (i.e., goal completion)" — so the episode
 * succeeds when any move names the shared friend, and the first mention is when it did. How well each
 * seat reached its goal stays the judge's goal score (the paper's Figure 2 and Table 2); no threshold on
 * that score is applied, because the paper states none.
 */
export type MutualFriendsSuccessRule = 'moves' | 'paper';

/** MutualFriends metrics of one episode. */
export interface MutualFriendsMetrics {
  /** `moves`: both seats selected the shared friend; `paper`: some move named the shared friend. */
  success: boolean;
  /** Which rule `success` follows. */
  successRule: MutualFriendsSuccessRule;
  /** The shared friend's name. */
  answer: string;
  /** Index (0-based, among the episode's moves) of the first move naming the shared friend; null if never named. */
  firstMentionTurn: number | null;
  /** firstMentionTurn / (moves − 1): 0 = first move, 1 = last; null if never named. */
  firstMentionPosition: number | null;
  /** Seat whose move first named the friend; null if never named. */
  firstMentionSeat: string | null;
}

/** The shared friend's name: the recorded outcome's answer, else the scenario truth's Name. */
export function sharedFriendName(episode: EpisodeRecord, scenario: Scenario | undefined): string | null {
  if (episode.outcome.kind === 'mutual_friends' && episode.outcome.answer) return episode.outcome.answer;
  if (scenario?.truth?.kind === 'mutual_friends') {
    const a = scenario.truth.answer;
    return a['Name'] ?? a['name'] ?? null;
  }
  return null;
}

/**
 * Success (by `rule`) and where the shared friend is first named. Every public move counts as a mention (speech,
 * non-verbal, physical action, `select` moves): all of them reach the partner. Null when the episode is
 * not a MutualFriends episode.
 */
export function mutualFriendsMetrics(episode: EpisodeRecord, scenario: Scenario | undefined, rule: MutualFriendsSuccessRule = 'moves'): MutualFriendsMetrics | null {
  if (episode.outcome.kind !== 'mutual_friends') return null;
  const answer = sharedFriendName(episode, scenario);
  if (!answer) return null;
  const moves = episode.turns.filter((t) => t.action !== null);
  const index = moves.findIndex((t) => mentions(t.action!.argument, answer));
  const found = index >= 0;
  return {
    success: rule === 'moves' ? episode.outcome.success : found,
    successRule: rule,
    answer,
    firstMentionTurn: found ? index : null,
    firstMentionPosition: found ? (moves.length > 1 ? index / (moves.length - 1) : 0) : null,
    firstMentionSeat: found ? moves[index]!.seat : null,
  };
}
