/** `--batch-retry`: what happens to requests a batch failed or expired (sent live, or in a new batch). */
export type BatchRetry = 'live' | 'batch';

/** Retry batches after the first under `--batch-retry batch`; what fails after that is retried live. */
export const MAX_RETRY_ROUNDS = 2;
