import { llmProviderOf, type PolicyConfig } from '../../protocol/index.js';
import type { RunConfig, RunConfigInput } from '../../orchestrator/run-config.js';

/**
 * Who plays each seat, said before anything runs (the start line of `run` and its dry run): every seat's
 * policy, model and sampling, with the ones nobody chose marked `default`. A script writer left at the
 * default bot while the agents are LLMs is the case this exists for: it used to go by unsaid.
 */

/** Which seats took a default (computed from the settings as given, before RunConfig's defaults). */
export interface SeatDefaults {
  /** No seat policy was given: every agent seat is the default bot. */
  agents: boolean;
  scriptWriter: boolean;
}

export function seatDefaults(input: Partial<RunConfigInput>): SeatDefaults {
  return { agents: input.agents === undefined, scriptWriter: input.scriptWriter === undefined };
}

/**
 * `openai:gpt-4o (temperature 0.7, top_p 0.9)`, or `(no sampling params: the protocol's temperature)` for an LLM
 * without params: 0.7, or under `paper` the agents' `--agent-temperature` (the dry run says which).
 */
function describePolicy(p: PolicyConfig): string {
  const shown = Object.entries(p.params ?? {}).map(([k, v]) => `${k} ${typeof v === 'string' ? v : JSON.stringify(v)}`);
  if (shown.length) return `${p.spec} (${shown.join(', ')})`;
  return llmProviderOf(p.spec) ? `${p.spec} (no sampling params: the protocol's temperature)` : p.spec;
}

/** One line naming every seat that plays in the run's modes, e.g. `seats: agent1 openai:… ; script writer bot [default] …`. */
export function seatLine(config: RunConfig, defaults: SeatDefaults): string {
  const parts: string[] = [];
  const agentModes = config.modes.filter((m) => m !== 'script');
  if (agentModes.length) {
    config.agents.forEach((p, i) => parts.push(`agent${i + 1} ${describePolicy(p)}${defaults.agents ? ' [default]' : ''}`));
    // Seats past the list play as the last one given (run/plan.ts): with one, that is every partner.
    if (config.agents.length === 1) parts.push('agent2 and later as agent1 [default]');
  }
  if (config.modes.includes('script')) {
    const llmAgents = config.agents.some((p) => llmProviderOf(p.spec));
    const hint = defaults.scriptWriter && llmAgents && !llmProviderOf(config.scriptWriter.spec) ? ' [default: the agents are LLMs but the script writer is not; --script-writer SPEC]' : defaults.scriptWriter ? ' [default]' : '';
    parts.push(`script writer ${describePolicy(config.scriptWriter)}${hint}`);
  }
  return `seats: ${parts.join('; ')}`;
}
