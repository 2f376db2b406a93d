import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cassetteRoot } from '../../run-dir/index.js';
import type { PolicyConfig } from '../../protocol/index.js';
import type { EpisodePlan } from '../episode-plan.js';
import type { ReplayedSeat } from './stats.js';

/** LLM policies answer from cassettes when they carry a replay directory. */
const isLlmReplay = (p: PolicyConfig) => Boolean(p.replayDir) && /^(openai|mistral|replay):/.test(p.spec);

/** Which seats of which episodes are answered from cassettes; undefined when none is (no replay). */
export function replayedSeats(plans: readonly EpisodePlan[]): ReplayedSeat | undefined {
  const seats = new Set<string>();
  for (const p of plans) for (const [seat, policy] of Object.entries(p.policies ?? {})) if (isLlmReplay(policy)) seats.add(`${p.episodeId}\u0000${seat}`);
  return seats.size ? (episodeId, seat) => seats.has(`${episodeId}\u0000${seat}`) : undefined;
}

/**
 * Replay preflight: every planned episode with a replayed LLM seat must have that run's cassettes
 * (same policies → same episode ids). Null when all are there, else a message naming what is missing.
 */
export function missingCassettes(plans: readonly EpisodePlan[]): string | null {
  const missing: string[] = [];
  let from = '';
  for (const p of plans) {
    const replaying = Object.values(p.policies ?? {}).filter(isLlmReplay);
    if (!replaying.length) continue;
    from = cassetteRoot(replaying[0]!.replayDir!);
    if (!existsSync(join(from, p.episodeId))) missing.push(p.episodeId);
  }
  if (!missing.length) return null;
  return `replay cannot answer ${missing.length} of ${plans.length} episode(s): no cassettes for ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''} in ${from} ` +
    '(the recorded run did not play these episodes with these policies; give the same scenarios, modes and seat policies, or none with --replay)';
}
