import { createHash } from 'node:crypto';
import type { Mode, PolicyConfig } from '../../protocol/index.js';
import type { SimulationProtocol } from '../../simulation/index.js';
import type { Scenario } from '../../scenarios/model.js';
import type { EpisodePlan } from '../episode-plan.js';
import type { RunConfig } from '../run-config.js';
import { SCRIPT_SEAT } from '../world.js';
import { isDefaultProtocol, protocolKey } from './protocol.js';

/**
 * Deterministic episode id from what defines an episode: scenario, character pair, mode, the policy
 * specs playing it, and the repeat index. A rerun with the same `--out` finds the same ids, which is
 * what makes runs resumable. Readable prefix, hash suffix (the prefix alone is not unique).
 */
export function episodeId(p: { scenarioId: string; pairId: string; mode: Mode; specs: readonly string[]; repeat: number; protocol?: string; draw?: number }): string {
  // The protocol joins the key only when it is not today's default, so existing run directories keep their ids;
  // a re-draw (selection first-valid) adds its draw number, so the first draw keeps the id it always had.
  const key = [p.scenarioId, p.pairId, p.mode, [...p.specs], p.repeat, ...(p.protocol ? [p.protocol] : []), ...(p.draw ? [{ draw: p.draw }] : [])];
  const hash = createHash('sha256')
    .update(JSON.stringify(key))
    .digest('hex')
    .slice(0, 12);
  const slug = p.scenarioId.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 48);
  // The same shape for every draw (readers and the queue check it); the record says which draw it is.
  return `${slug}.${p.mode}.r${p.repeat}.${hash}`;
}

/** Policy of each live seat: agent1 plays the first scenario seat, agent2 the second (the last config repeats). */
export function seatPolicies(scenario: Scenario, mode: Mode, config: Pick<RunConfig, 'agents' | 'scriptWriter'>): Record<string, PolicyConfig> {
  if (mode === 'script') return { [SCRIPT_SEAT]: config.scriptWriter };
  // Keyed by seat id: no prototype, so an id never reads an inherited member (protocol/seat-id.ts).
  const out: Record<string, PolicyConfig> = Object.create(null) as Record<string, PolicyConfig>;
  scenario.seats.forEach((s, i) => {
    out[s.seat] = config.agents[Math.min(i, config.agents.length - 1)]!;
  });
  return out;
}

/**
 * Expands scenarios × modes × repeats into episode plans, scenario-major (so `--limit` keeps whole
 * scenario/mode comparisons together), then applies `limit`.
 */
export function planEpisodes(scenarios: readonly Scenario[], config: RunConfig, protocol?: SimulationProtocol): EpisodePlan[] {
  const plans: EpisodePlan[] = [];
  const protocolPart = protocol && !isDefaultProtocol(protocol) ? { protocol: protocolKey(protocol) } : {};
  for (const scenario of scenarios) {
    for (const mode of config.modes) {
      const policies = seatPolicies(scenario, mode, config);
      const specs = Object.values(policies).map((p) => p.spec);
      for (let repeat = 0; repeat < config.repeats; repeat++) {
        plans.push({
          episodeId: episodeId({ scenarioId: scenario.id, pairId: scenario.pairId, mode, specs, repeat, ...protocolPart }),
          scenario,
          mode,
          repeat,
          policies,
          idKey: { specs, ...protocolPart },
        });
      }
    }
  }
  return config.limit !== undefined ? plans.slice(0, config.limit) : plans;
}
