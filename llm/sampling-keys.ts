/**
 * The sampling parameters each provider accepts, in the spellings Parley takes (OpenAI's snake_case and
 * the camelCase aliases `sampling.ts` converts). A key outside its provider's list is an error before
 * anything is sent: a misspelt `temprature` would otherwise be dropped or rejected mid-run, and the
 * experiment would silently run at the default temperature.
 */
const COMMON = ['temperature', 'top_p', 'topP', 'max_tokens', 'maxTokens', 'stop', 'presence_penalty', 'presencePenalty', 'frequency_penalty', 'frequencyPenalty', 'n'];

export const SAMPLING_KEYS: Readonly<Record<'openai' | 'mistral', readonly string[]>> = {
  // OpenAI's chat completions, plus the sampling extensions OpenAI-compatible servers (vLLM, Together,
  // llama.cpp, Ollama) accept on the same endpoint.
  openai: [...COMMON, 'max_completion_tokens', 'seed', 'logit_bias', 'logprobs', 'top_logprobs', 'user', 'top_k', 'min_p', 'repetition_penalty'],
  mistral: [...COMMON, 'random_seed', 'randomSeed', 'seed', 'safe_prompt', 'safePrompt'],
};

/** The first sampling key `provider` does not accept, with the accepted ones, or null when all are fine. */
export function unknownSamplingKey(provider: string, keys: readonly string[]): { key: string; allowed: readonly string[] } | null {
  const allowed = SAMPLING_KEYS[provider as keyof typeof SAMPLING_KEYS];
  if (!allowed) return null;
  const key = keys.find((k) => !allowed.includes(k));
  return key === undefined ? null : { key, allowed };
}
