import { runProtocol } from '../run-protocol.js';
import type { RunDir } from '../run-dir.js';
import { episodeMetrics, type EpisodeMetrics } from './episode-metrics.js';

/** Every episode's metrics in a run, MutualFriends success read by the run's own protocol (paper: the friend named). */
export function runMetrics(run: RunDir): EpisodeMetrics[] {
  const mutualFriendsSuccess = runProtocol(run).scoring.mutualFriendsSuccess;
  return run.episodes.map((e) => episodeMetrics(e.record, run.scenarios.get(e.record.scenarioId), { mutualFriendsSuccess }));
}
