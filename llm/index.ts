/**
 * The LLM layer: provider clients (OpenAI SDK for any OpenAI-compatible server, Mistral SDK), retries and
 * rate limits, cassettes and replay, prices. Used by agent policies, the judge and the scenario generator.
 */
export * from './types.js';
export * from './errors.js';
export * from './spec.js';
export * from './options.js';
export { unknownSamplingKey } from './sampling-keys.js';
export * from './providers/index.js';
export { createClient, createProviderClient, replaySource, resolveProvider } from './create-client.js';
export { openAiBatchApi, batchChatBody, type BatchApi, type BatchSettings, type BatchState, type BatchTerminal } from './openai-batch.js';
export { mistralBatchApi } from './mistral-batch.js';
export { warmProvider } from './warm.js';
export type { ClientConfig, CreateClientOptions } from './create-client.js';
export { readCassette, RecordingClient, ReplayClient } from './cassette.js';
export { jsonPrefix, prefixedMessage, type JsonPrefix } from './json-prefix.js';
export type { CassetteEntry, CassetteFiles } from './cassette.js';
export { estimateCost, estimateTotalCost, loadPrices, priceOf } from './cost.js';
export type { Price, PriceTable } from './cost.js';
export { parseRetryAfter, backoffCeiling, backoffDelay, withRetries } from './retry.js';
export { RequestLimiter, limiterFor } from './limiter.js';
export { missingKeys } from './preflight.js';
export type { MissingKey } from './preflight.js';
export { resetStructuredMemory, rejectsFormat } from './structured-ladder.js';
export { lenientJson, strictJson } from './lenient-json.js';
export type { FinetuneApi, FinetuneJob, FinetuneMethod, ProviderAccess, UploadedFile } from './finetune-api.js';
