import { packagePath } from '../../disk/package-root.js';
import { openAiBatchApi } from '../openai-batch.js';
import { createOpenAiClient } from '../openai-client.js';
import { COMMON_SAMPLING_KEYS } from './common-sampling.js';
import type { Provider } from './provider.js';

const trimmed = (url: string) => url.replace(/\/+$/, '');

/**
 * `openai:<model>`: the `openai` SDK, for OpenAI itself or any OpenAI-compatible server (vLLM, Ollama,
 * Together, llama.cpp) reached by base URL. Base URLs include `/v1` (the SDK appends `/chat/completions`).
 */
export const openai: Provider = {
  name: 'openai',
  env: { key: 'OPENAI_API_KEY', baseURL: 'OPENAI_BASE_URL' },
  defaultBaseURL: 'https://api.openai.com/v1',
  baseURLAt: (origin) => `${trimmed(origin)}/v1`,
  modelsURL: (baseURL) => `${trimmed(baseURL)}/models`,
  // OpenAI and most compatible servers accept JSON schemas (constrained decoding).
  structuredOutput: 'json_schema',
  // OpenAI's chat completions, plus the sampling extensions compatible servers (vLLM, Together,
  // llama.cpp, Ollama) accept on the same endpoint.
  samplingKeys: [...COMMON_SAMPLING_KEYS, 'max_completion_tokens', 'seed', 'logit_bias', 'logprobs', 'top_logprobs', 'user', 'top_k', 'min_p', 'repetition_penalty'],
  completionTransport: true,
  // SOTOPIA sent its reformat request to gpt-3.5-turbo (its code pins gpt-3.5-turbo-0613, since retired).
  paperReformat: 'sotopia-model',
  client: (s, deps) => createOpenAiClient({ name: 'openai', ...s }, deps),
  batchApi: (s) => openAiBatchApi(s),
  finetune: {
    api: async (access) => (await import('../openai-finetune.js')).openAiFinetune(access),
    ownsJobId: (id) => id.startsWith('ftjob-'),
    // Preference fine-tuning: a job with `method: { type: 'dpo' }` over a file of preference pairs.
    methods: ['supervised', 'dpo'],
  },
  prices: packagePath('llm', 'providers', 'openai.prices.json'),
  // o200k for the GPT-4o / 4.1 / 5 / o-series families, cl100k for GPT-3.5 and GPT-4.
  tokenEncoding(model) {
    const base = model.replace(/^ft:/, '');
    if (/^(gpt-4o|gpt-4\.1|gpt-5|o\d)/.test(base)) return 'o200k_base';
    if (/^(gpt-3\.5|gpt-4)/.test(base)) return 'cl100k_base';
    return null;
  },
};
