import type { ChatRequest } from './types.js';

/**
 * The sampling params of one request, OpenAI spelling (`temperature`, `max_tokens`, `top_p`, `seed`…):
 * the client's configured defaults, overridden by the request's own `params`, `temperature` and `maxTokens`.
 */
export function samplingFor(defaults: Record<string, unknown>, req: ChatRequest): Record<string, unknown> {
  const out: Record<string, unknown> = { ...normalise(defaults), ...normalise(req.params ?? {}) };
  if (req.temperature !== undefined) out.temperature = req.temperature;
  if (req.maxTokens !== undefined) out.max_tokens = req.maxTokens;
  return out;
}

const CAMEL_TO_SNAKE: Record<string, string> = {
  maxTokens: 'max_tokens',
  topP: 'top_p',
  randomSeed: 'seed',
  random_seed: 'seed',
  presencePenalty: 'presence_penalty',
  frequencyPenalty: 'frequency_penalty',
};

function normalise(params: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) if (v !== undefined) out[CAMEL_TO_SNAKE[k] ?? k] = v;
  return out;
}

/** OpenAI spelling → the Mistral SDK's camelCase request fields (unknown keys are dropped by its schema anyway). */
export function toMistralSampling(sampling: Record<string, unknown>): Record<string, unknown> {
  const map: Record<string, string> = {
    max_tokens: 'maxTokens',
    top_p: 'topP',
    seed: 'randomSeed',
    presence_penalty: 'presencePenalty',
    frequency_penalty: 'frequencyPenalty',
    safe_prompt: 'safePrompt',
  };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(sampling)) out[map[k] ?? k] = v;
  return out;
}
