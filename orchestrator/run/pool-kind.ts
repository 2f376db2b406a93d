import { parsePolicySpec, type PolicyConfig } from '../../protocol/index.js';
import type { HostPoolOptions } from './episode-host.js';
import { workerNiceness } from '../supervisor/worker-niceness.js';

/**
 * Which runs may share one pool of agent processes (PoolLender): the same seats per process, bot flags, TLS,
 * niceness and entry, and the same policies warmed, each without what its warm-up does not use.
 *
 * Why not the policies as given: a warm-up loads a policy's modules (llm/warm.ts answers a made-up request
 * for the provider on a loopback server of its own), so `openai:gen-a` and `openai:gen-b` warm the same code;
 * keyed by the model, a multiverse over a model axis started a pool per model, each after the previous one
 * was stopped (multiverse-llm: 18 one-seat processes for 12 episodes, bench/suite-cost.md). The run's own
 * directories are not part of it either: each seat's policy carries them.
 */
export function poolKind(o: HostPoolOptions): string {
  const warmed = [...new Set(o.warm.map((p) => JSON.stringify(warmedAs(p))))].sort();
  return JSON.stringify([o.seatsPerProcess, o.botsOnly ?? false, o.growOnDemand ?? false, o.tlsFree ?? false, o.niceness ?? workerNiceness(), o.workerPath ?? null, warmed]);
}

/** A policy as warmed: without the cassette directory of the run that first asked for it. */
export function withoutRunDirs(p: PolicyConfig): PolicyConfig {
  const { cassetteDir: _cassettes, ...rest } = p;
  return rest;
}

/** A policy as its warm-up sees it: an LLM policy's spec without its model. */
function warmedAs(p: PolicyConfig): PolicyConfig {
  const parsed = parsePolicySpec(p.spec);
  const spec = parsed.ok && parsed.spec.kind === 'llm' ? `${parsed.spec.provider}:*` : p.spec;
  return { ...withoutRunDirs(p), spec };
}
