import { policyKind } from '../../protocol/index.js';
import type { Setting } from './claim.js';
import { instructionsDir, instructionSeats } from './instructions.js';

/*
 * A claim's `model`, `temperature` and `instructions` (issue 43) are not experiment keys: each sets every
 * LLM seat of the arm at once (the agents and the script writer; `instructions` the seats whose templates
 * its variant has, instructions.ts), so "model A against model B" is one axis. A seat that
 * is a bot or a person stays as it is; a seat the experiment leaves unset is an LLM seat of the model.
 */

type Policy = string | { spec: string; params?: Record<string, unknown> } & Record<string, unknown>;

const SEAT_KEYS = ['agent1', 'agent2', 'scriptWriter'] as const;

const isLlm = (p: Policy) => policyKind(typeof p === 'string' ? p : p.spec) === 'llm';

/** One seat with the model and temperature set, when it is an LLM seat (a string stays a string when it can). */
function setSeat(p: Policy, model: string | undefined, temperature: number | undefined, promptDir?: string): Policy {
  if (!isLlm(p)) return p;
  const policy: Exclude<Policy, string> = typeof p === 'string' ? { spec: p } : { ...p };
  if (model !== undefined) policy.spec = model;
  if (temperature !== undefined) policy.params = { ...(policy.params ?? {}), temperature };
  if (promptDir !== undefined) policy['promptDir'] = promptDir;
  return Object.keys(policy).length === 1 ? policy.spec : policy;
}

/** The experiment of a setting: `model` and `temperature` applied to its seats and taken out. */
export function applySeatAxes(setting: Setting): Setting {
  const { model, temperature, instructions, ...experiment } = setting as Setting & { model?: string; temperature?: number; instructions?: string };
  if (model === undefined && temperature === undefined && instructions === undefined) return experiment;
  const dir = instructions !== undefined ? instructionsDir(instructions) : undefined;
  const reach = dir !== undefined ? instructionSeats(dir) : { agents: false, scriptWriter: false };
  const agentDir = reach.agents ? dir : undefined;
  const out: Record<string, unknown> = { ...experiment };
  // Only the seats the arm's modes use: a script-only arm's agents play no episode (unset modes: all three).
  const modes = (out['modes'] as string[] | undefined) ?? ['script', 'agents', 'mindreaders'];
  const usesAgents = modes.some((m) => m !== 'script');
  const usesWriter = modes.includes('script');
  if (usesAgents) {
    const unsetAgents = out['agents'] === undefined && out['agent1'] === undefined && out['agent2'] === undefined;
    if (unsetAgents && model !== undefined) out['agents'] = [model];
    if (Array.isArray(out['agents'])) out['agents'] = (out['agents'] as Policy[]).map((p) => setSeat(p, model, temperature, agentDir));
    for (const k of ['agent1', 'agent2'] as const) if (out[k] !== undefined) out[k] = setSeat(out[k] as Policy, model, temperature, agentDir);
  }
  if (usesWriter) {
    if (out['scriptWriter'] === undefined && model !== undefined) out['scriptWriter'] = model;
    if (out['scriptWriter'] !== undefined) out['scriptWriter'] = setSeat(out['scriptWriter'] as Policy, model, temperature, reach.scriptWriter ? dir : undefined);
  }
  return out;
}

/** Whether an experiment has an LLM seat (a `model` or `temperature` with none would change nothing). */
export function hasLlmSeat(experiment: Setting): boolean {
  const seats = [...((experiment['agents'] as Policy[] | undefined) ?? []), ...SEAT_KEYS.map((k) => experiment[k] as Policy | undefined)];
  return seats.some((p) => p !== undefined && isLlm(p));
}
