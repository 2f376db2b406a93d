import { packagePath } from '../../disk/package-root.js';
import { mistralBatchApi } from '../mistral-batch.js';
import { createMistralClient } from '../mistral-client.js';
import { COMMON_SAMPLING_KEYS } from './common-sampling.js';
import type { Provider } from './provider.js';

/** The Mistral SDK appends `/v1/…` itself; a base URL is accepted written either way. */
export function mistralServerURL(url: string | undefined): string | undefined {
  if (!url) return undefined;
  return url.replace(/\/+$/, '').replace(/\/v1$/, '');
}

/** `mistral:<model>`: the `@mistralai/mistralai` SDK, Mistral's API or a server that speaks it. */
export const mistral: Provider = {
  name: 'mistral',
  env: { key: 'MISTRAL_API_KEY', baseURL: 'MISTRAL_BASE_URL' },
  defaultBaseURL: 'https://api.mistral.ai',
  baseURLAt: (origin) => mistralServerURL(origin)!,
  modelsURL: (baseURL) => `${mistralServerURL(baseURL)}/v1/models`,
  // Mistral's JSON mode works on every model; its JSON schemas do not.
  structuredOutput: 'json_object',
  samplingKeys: [...COMMON_SAMPLING_KEYS, 'random_seed', 'randomSeed', 'seed', 'safe_prompt', 'safePrompt'],
  // Mistral's API serves chat only.
  completionTransport: false,
  // SOTOPIA's reformat model is OpenAI's: a Mistral seat reformats with its own model.
  paperReformat: 'own',
  client: (s, deps) => createMistralClient({ model: s.model, apiKey: s.apiKey, serverURL: mistralServerURL(s.baseURL), options: s.options, sampling: s.sampling }, deps),
  batchApi: (s) => mistralBatchApi({ ...s, baseURL: mistralServerURL(s.baseURL) }),
  finetune: {
    api: async (access) => (await import('../mistral-finetune.js')).mistralFinetune(access),
    ownsJobId: () => false,
    methods: ['supervised'],
  },
  prices: packagePath('llm', 'providers', 'mistral.prices.json'),
  // Parley ships no Mistral tokenizer: its token counts are estimates.
  tokenEncoding: () => null,
};
