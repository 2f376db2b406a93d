import { LLM_PROVIDER_NAMES, parsePolicySpec } from '../protocol/policy-spec.js';
import { LlmError, LlmErrorCode } from './errors.js';

/** Providers the LLM layer can call (protocol's LLM_PROVIDER_NAMES); `replay` answers from recorded cassettes. */
export const LLM_PROVIDERS = [...LLM_PROVIDER_NAMES, 'replay'] as const;
export type LlmProvider = (typeof LLM_PROVIDERS)[number];

/** A parsed LLM policy spec: `openai:gpt-4` → `{provider:'openai', model:'gpt-4'}`; `replay:runs/x` → `{provider:'replay', model:'runs/x'}`. */
export interface ParsedSpec {
  provider: LlmProvider;
  /** Model name, or for `replay` the recorded run directory. */
  model: string;
}

/**
 * The LLM view of a policy spec, through the one parser (protocol/policy-spec.ts). Throws `llm/bad_spec`
 * for a bot, a human or a malformed spec: callers validated the spec at the edge already.
 */
export function parseSpec(spec: string): ParsedSpec {
  const parsed = parsePolicySpec(spec);
  if (parsed.ok && parsed.spec.kind === 'llm') return { provider: parsed.spec.provider, model: parsed.spec.model };
  if (parsed.ok && parsed.spec.kind === 'replay') return { provider: 'replay', model: parsed.spec.dir };
  const expected = LLM_PROVIDERS.map((p) => `${p}:<${p === 'replay' ? 'run-dir' : 'model'}>`).join(', ');
  throw new LlmError(LlmErrorCode.BadSpec, `'${spec}' is not an LLM spec (expected ${expected})`);
}
