import { setTimeout as sleep } from 'node:timers/promises';
import { BATCH_TERMINAL, type BatchApi, type BatchState } from '../../llm/openai-batch.js';
import { resolveProvider } from '../../llm/create-client.js';
import type { StructuredMode } from '../../llm/options.js';
import { terminalSafe } from '../../text/terminal.js';

/**
 * What `eval --batch` and `compare --batch` share about a provider's batch interface: which API a judge
 * spec talks to (its provider's, llm/providers/, on the judge's own endpoint and key)
 * and how a submitted batch is waited for. Each command keeps its own record of what it submitted.
 */

/** The batch API for a judge spec, and the structured-output rung its requests are written on (a batch cannot step down the ladder). */
export function batchApiFor(spec: string, params: Record<string, unknown>, endpoint: { baseURL?: string; apiKeyEnv?: string }): { api: BatchApi; structured: StructuredMode } {
  const resolved = resolveProvider({ spec, params, ...endpoint });
  const structured = resolved.options.structuredOutput;
  const api = resolved.provider.batchApi({ apiKey: resolved.apiKey, baseURL: resolved.baseURL, timeoutMs: resolved.options.timeoutMs, model: resolved.model, sampling: resolved.sampling, structured });
  return { api, structured };
}

/** `batch batch_abc (openai:gpt-4): in_progress · 3/6 requests done · 0 failed` */
export function batchProgressLine(spec: string, b: Pick<BatchState, 'id' | 'status' | 'counts'>): string {
  return `batch ${terminalSafe(b.id)} (${terminalSafe(spec)}): ${b.status} · ${b.counts.completed}/${b.counts.total} requests done · ${b.counts.failed} failed`;
}

export interface PollOptions {
  spec: string;
  pollMs: number;
  signal: AbortSignal;
  log: (line: string) => void;
  /** Called with each state whose progress line differs from the last one printed. */
  onChange?: (state: BatchState) => void;
}

/**
 * Reads the batch's status every `pollMs` until it ends (its final state) or the command is interrupted
 * (null: the batch stays pending where the command recorded it, and the same command collects it later).
 */
export async function pollBatch(api: BatchApi, id: string, o: PollOptions): Promise<BatchState | null> {
  let last = '';
  for (;;) {
    const state = await api.retrieve(id);
    const line = batchProgressLine(o.spec, state);
    if (line !== last) {
      last = line;
      o.log(line);
      o.onChange?.(state);
    }
    if ((BATCH_TERMINAL as readonly string[]).includes(state.status)) return state;
    try {
      await sleep(o.pollMs, undefined, { signal: o.signal });
    } catch {
      o.log(`batch ${terminalSafe(id)} is still ${state.status}; run the same command again to collect it (no second batch is submitted)`);
      return null;
    }
  }
}
