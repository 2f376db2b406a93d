import { LlmError, LlmErrorCode } from './errors.js';

/** Providers the LLM layer can call. `replay` answers from recorded cassettes. */
export const LLM_PROVIDERS = ['openai', 'mistral', 'replay'] as const;
export type LlmProvider = (typeof LLM_PROVIDERS)[number];

/** A parsed LLM policy spec: `openai:gpt-4` → `{provider:'openai', model:'gpt-4'}`; `replay:runs/x` → `{provider:'replay', model:'runs/x'}`. */
export interface ParsedSpec {
  provider: LlmProvider;
  /** Model name, or for `replay` the recorded run directory. */
  model: string;
}

/** Parses `<provider>:<model>`; the model may itself contain colons (`openai:ft:gpt-3.5:org`). */
export function parseSpec(spec: string): ParsedSpec {
  const colon = spec.indexOf(':');
  const provider = colon < 0 ? spec : spec.slice(0, colon);
  const model = colon < 0 ? '' : spec.slice(colon + 1).trim();
  if (!(LLM_PROVIDERS as readonly string[]).includes(provider)) {
    throw new LlmError(LlmErrorCode.BadSpec, `'${spec}' is not an LLM spec (expected openai:<model>, mistral:<model> or replay:<run-dir>)`);
  }
  if (!model) throw new LlmError(LlmErrorCode.BadSpec, `'${spec}' names no model (expected ${provider}:<model>)`);
  return { provider: provider as LlmProvider, model };
}
