import { policyKind, type PolicyConfigInput } from '../protocol/index.js';
import type { RunConfigInput } from '../orchestrator/run-config.js';

/** Provider limits for every LLM seat of a run: requests and tokens per minute (shared by all workers under --queue). */
export interface RateLimits {
  rpm?: number;
  tpm?: number;
}

const isLlm = (spec: string) => policyKind(spec) === 'llm';

/**
 * Puts `rpm`/`tpm` into the client params of every LLM policy of a run (agents, script writer, judge).
 * `override` false (an experiment file's top-level values): a seat's own `params.rpm`/`params.tpm`
 * wins; true (the `--rpm`/`--tpm` flags): the flags win, as flags do over the file everywhere.
 */
export function applyRateLimits(input: Partial<RunConfigInput>, limits: RateLimits, override: boolean): Partial<RunConfigInput> {
  if (limits.rpm === undefined && limits.tpm === undefined) return input;
  const set = (p: PolicyConfigInput): PolicyConfigInput => {
    if (!isLlm(p.spec)) return p;
    const params: Record<string, unknown> = { ...(p.params ?? {}) };
    for (const k of ['rpm', 'tpm'] as const) {
      if (limits[k] !== undefined && (override || params[k] === undefined)) params[k] = limits[k];
    }
    return { ...p, params };
  };
  const out: Partial<RunConfigInput> = { ...input };
  // Only policies the run names: inventing `agents` here would hide a replay's recorded policies.
  if (input.agents) out.agents = input.agents.map(set);
  if (input.scriptWriter) out.scriptWriter = set(input.scriptWriter);
  if (input.judge) out.judge = set(input.judge);
  return out;
}

/** Checks a limit flag or key: a non-negative integer (0 = no limit). */
export function badLimit(name: string, value: unknown): string | null {
  if (value === undefined) return null;
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? null : `${name}: expected a non-negative integer (got ${JSON.stringify(value)})`;
}
