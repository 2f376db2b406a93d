import { ErrorCode } from '../protocol/codes.js';
import { parsePolicySpec, POLICY_SPEC_FORMS, type PolicySpecResult } from '../protocol/policy-spec.js';
import { LlmError, LlmErrorCode } from './errors.js';
import type { Provider } from './providers/provider.js';
import { allProviders, providerNamed } from './providers/registry.js';

/** A parsed LLM policy spec: `openai:gpt-4` → `{provider:'openai', model:'gpt-4'}`; `replay:runs/x` → `{provider:'replay', model:'runs/x'}`. */
export interface ParsedSpec {
  /** A registered provider's name, or `replay`. */
  provider: string;
  /** Model name, or for `replay` the recorded run directory. */
  model: string;
}

/** A live LLM spec parsed once: its registered provider (with everything it knows) and the model. */
export interface LlmSpec {
  provider: Provider;
  model: string;
}

/** The spec forms with the registered providers spelt out, for `--help` and error messages. */
export function policySpecForms(): string[] {
  return POLICY_SPEC_FORMS.flatMap((f) => (f === '<provider>:<model>' ? allProviders().map((p) => `${p.name}:<model>`) : [f]));
}

/** `openai:<model> or mistral:<model>`: the LLM forms, for messages about a reformat or judge spec. */
export const llmSpecForms = (): string => allProviders().map((p) => `${p.name}:<model>`).join(' or ');

/**
 * The edge's parser of a policy spec: the grammar (protocol/policy-spec.ts), then an LLM spec's provider
 * looked up in the registry: an unknown one is refused here (code `policy/unknown_spec`), never played
 * as another provider.
 */
export function checkPolicySpec(raw: string): PolicySpecResult {
  const parsed = parsePolicySpec(raw);
  if (!parsed.ok || parsed.spec.kind !== 'llm' || providerNamed(parsed.spec.provider)) return parsed;
  return { ok: false, code: ErrorCode.UnknownPolicy, message: `'${raw}' is not a policy spec: unknown provider '${parsed.spec.provider}' (expected ${policySpecForms().join(', ')})` };
}

/** Null when `raw` is a live LLM spec of a registered provider, else why not (for flags that take one: judge, reformat model). */
export function llmSpecProblem(raw: string): string | null {
  const parsed = checkPolicySpec(raw);
  if (!parsed.ok) return parsed.message;
  return parsed.spec.kind === 'llm' ? null : `'${raw}' is not an LLM spec (${llmSpecForms()})`;
}

/**
 * The LLM view of a policy spec. Throws `llm/bad_spec` for a bot, a human, a malformed spec or an
 * unknown provider: callers validated the spec at the edge already.
 */
export function parseSpec(spec: string): ParsedSpec {
  const parsed = parsePolicySpec(spec);
  if (parsed.ok && parsed.spec.kind === 'llm' && providerNamed(parsed.spec.provider)) return { provider: parsed.spec.provider, model: parsed.spec.model };
  if (parsed.ok && parsed.spec.kind === 'replay') return { provider: 'replay', model: parsed.spec.dir };
  const why = parsed.ok && parsed.spec.kind === 'llm' ? `unknown provider '${parsed.spec.provider}'` : 'not an LLM spec';
  throw new LlmError(LlmErrorCode.BadSpec, `'${spec}': ${why} (expected ${[...allProviders().map((p) => `${p.name}:<model>`), 'replay:<run-dir>'].join(', ')})`);
}

/** A live LLM spec, typed: its provider from the registry. Throws `llm/bad_spec` for anything else (replay included). */
export function parseLlmSpec(spec: string): LlmSpec {
  const parsed = parseSpec(spec);
  const provider = providerNamed(parsed.provider);
  if (!provider) throw new LlmError(LlmErrorCode.BadSpec, `'${spec}' is not a live LLM spec (${llmSpecForms()})`);
  return { provider, model: parsed.model };
}
