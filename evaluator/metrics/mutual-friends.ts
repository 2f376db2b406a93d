import type { EpisodeRecord } from '../../protocol/index.js';
import type { Scenario } from '../../scenarios/model.js';
import { mentions } from './text.js';

/** MutualFriends metrics of one episode. */
export interface MutualFriendsMetrics {
  /** Both seats selected the shared friend (from explicit `select` moves). */
  success: boolean;
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
 * Success and where the shared friend is first named. Every public move counts as a mention (speech,
 * non-verbal, physical action, `select` moves): all of them reach the partner. Null when the episode is
 * not a MutualFriends episode.
 */
export function mutualFriendsMetrics(episode: EpisodeRecord, scenario: Scenario | undefined): MutualFriendsMetrics | null {
  if (episode.outcome.kind !== 'mutual_friends') return null;
  const answer = sharedFriendName(episode, scenario);
  if (!answer) return null;
  const moves = episode.turns.filter((t) => t.action !== null);
  const index = moves.findIndex((t) => mentions(t.action!.argument, answer));
  const found = index >= 0;
  return {
    success: episode.outcome.success,
    answer,
    firstMentionTurn: found ? index : null,
    firstMentionPosition: found ? (moves.length > 1 ? index / (moves.length - 1) : 0) : null,
    firstMentionSeat: found ? moves[index]!.seat : null,
  };
}
