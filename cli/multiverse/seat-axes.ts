import { policyKind } from '../../protocol/index.js';
import type { Setting } from './claim.js';

/*
 * A claim's `model` and `temperature` (issue 43) are not experiment keys: each sets every LLM seat of the
 * arm at once (the agents and the script writer), so "model A against model B" is one axis. A seat that
 * is a bot or a person stays as it is; a seat the experiment leaves unset is an LLM seat of the model.
 */

type Policy = string | { spec: string; params?: Record<string, unknown> } & Record<string, unknown>;

const SEAT_KEYS = ['agent1', 'agent2', 'scriptWriter'] as const;

const isLlm = (p: Policy) => policyKind(typeof p === 'string' ? p : p.spec) === 'llm';

/** One seat with the model and temperature set, when it is an LLM seat (a string stays a string when it can). */
function setSeat(p: Policy, model: string | undefined, temperature: number | undefined): Policy {
  if (!isLlm(p)) return p;
  const policy = typeof p === 'string' ? { spec: p } : { ...p };
  if (model !== undefined) policy.spec = model;
  if (temperature !== undefined) policy.params = { ...(policy.params ?? {}), temperature };
  return Object.keys(policy).length === 1 ? policy.spec : policy;
}

/** The experiment of a setting: `model` and `temperature` applied to its seats and taken out. */
export function applySeatAxes(setting: Setting): Setting {
  const { model, temperature, ...experiment } = setting as Setting & { model?: string; temperature?: number };
  if (model === undefined && temperature === undefined) return experiment;
  const out: Record<string, unknown> = { ...experiment };
  const unsetAgents = out['agents'] === undefined && out['agent1'] === undefined && out['agent2'] === undefined;
  if (unsetAgents && model !== undefined) out['agents'] = [model];
  if (out['scriptWriter'] === undefined && model !== undefined) out['scriptWriter'] = model;
  if (Array.isArray(out['agents'])) out['agents'] = (out['agents'] as Policy[]).map((p) => setSeat(p, model, temperature));
  for (const k of SEAT_KEYS) if (out[k] !== undefined) out[k] = setSeat(out[k] as Policy, model, temperature);
  return out;
}

/** Whether an experiment has an LLM seat (a `model` or `temperature` with none would change nothing). */
export function hasLlmSeat(experiment: Setting): boolean {
  const seats = [...((experiment['agents'] as Policy[] | undefined) ?? []), ...SEAT_KEYS.map((k) => experiment[k] as Policy | undefined)];
  return seats.some((p) => p !== undefined && isLlm(p));
}
