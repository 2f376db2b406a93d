/**
 * The sampling parameters every chat provider accepts, in the spellings Parley takes (OpenAI's snake_case
 * and the camelCase aliases llm/sampling.ts converts); each provider lists these plus its own.
 */
export const COMMON_SAMPLING_KEYS: readonly string[] = ['temperature', 'top_p', 'topP', 'max_tokens', 'maxTokens', 'stop', 'presence_penalty', 'presencePenalty', 'frequency_penalty', 'frequencyPenalty', 'n'];
