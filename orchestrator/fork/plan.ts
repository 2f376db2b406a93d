import { createHash } from 'node:crypto';
import type { SimulationProtocol } from '../../simulation/index.js';
import type { EpisodePlan } from '../episode-plan.js';
import type { RunConfig } from '../run-config.js';
import { seatPolicies } from '../run/plan.js';
import { protocolKey } from '../run/protocol.js';
import type { ForkParent } from './parent.js';
import { parseReveals } from './reveal.js';

/**
 * Deterministic id of a fork episode, from what defines it: the parent episode, the fork turn, the
 * policies playing on, what is revealed, the protocol and the repeat. A rerun of the same `parley fork`
 * finds the same ids (resume); `<scenario>.<mode>.t<at>.r<repeat>.<hash>`, one safe path segment.
 */
export function forkEpisodeId(p: { parentRun: string; parentEpisode: string; scenarioId: string; mode: string; at: number; specs: readonly string[]; reveal: readonly string[]; protocol: string; repeat: number }): string {
  const key = [p.parentRun, p.parentEpisode, p.at, [...p.specs], [...p.reveal], p.protocol, p.repeat];
  const hash = createHash('sha256').update(JSON.stringify(key)).digest('hex').slice(0, 12);
  const slug = p.scenarioId.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 48);
  return `${slug}.${p.mode}.t${p.at}.r${p.repeat}.${hash}`;
}

/**
 * A fork run's episodes: for each fork turn (`forkAt`, in order) and each repeat, one episode that replays
 * the parent's turns before it and plays on under `config`'s policies. Throws on a config that is not a
 * fork (the lifecycle calls this only for one).
 */
export function planForks(parent: ForkParent, config: RunConfig, protocol: SimulationProtocol): EpisodePlan[] {
  const fork = config.fork;
  if (!fork || !config.forkAt) throw new Error('planForks needs a fork config');
  const { record, scenario } = parent;
  const reveals = parseReveals(fork.reveal, scenario.seats.map((s) => s.seat));
  if (!reveals.ok) throw new Error(reveals.message);
  const policies = seatPolicies(scenario, record.mode, config);
  const specs = Object.values(policies).map((p) => p.spec);
  const plans: EpisodePlan[] = [];
  for (const at of [...new Set(config.forkAt)].sort((a, b) => a - b)) {
    for (let repeat = 0; repeat < config.repeats; repeat++) {
      plans.push({
        episodeId: forkEpisodeId({ parentRun: parent.runId, parentEpisode: record.episodeId, scenarioId: scenario.id, mode: record.mode, at, specs, reveal: fork.reveal, protocol: protocolKey(protocol), repeat }),
        scenario,
        mode: record.mode,
        repeat,
        policies,
        fork: { parentRun: parent.runId, parentEpisode: record.episodeId, at, prefix: record.turns.slice(0, at), reveals: reveals.reveals, revealText: [...fork.reveal] },
      });
    }
  }
  return config.limit !== undefined ? plans.slice(0, config.limit) : plans;
}
