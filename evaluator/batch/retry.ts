import type { LlmClient } from '../../llm/types.js';

/** `--batch-retry`: what happens to requests a batch failed or expired (sent live, or in a new batch). */
export type BatchRetry = 'live' | 'batch';

/** Retry batches after the first under `--batch-retry batch`; what fails after that is retried live. */
export const MAX_RETRY_ROUNDS = 2;

/**
 * What a batch judging (`eval --batch`, `compare --batch`) shares with the live judge: the client settings
 * and sampling params, endpoint and key variable, and the live client that answers what the batch did not
 * (retries, reformat requests, `--batch-retry live`), how failed requests are retried, and how often the
 * batch is polled.
 */
export interface BatchFallback {
  params: Record<string, unknown>;
  endpoint: { baseURL?: string; apiKeyEnv?: string };
  client: LlmClient;
  retry: BatchRetry;
  pollMs: number;
  concurrency: number;
  signal: AbortSignal;
  log: (line: string) => void;
}
