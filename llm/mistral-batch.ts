import * as z from 'zod';
import { ProviderId } from './provider-id.js';
import { attemptSignal, withCallSignal } from './attempt-signal.js';
import { LlmError, LlmErrorCode } from './errors.js';
import { loadMistral } from './mistral-sdk.js';
import { batchChatBody, type BatchApi, type BatchSettings, type BatchState } from './openai-batch.js';

/**
 * Mistral's batch jobs through the official `@mistralai/mistralai` SDK: `files.upload({ file, purpose:
 * 'batch' })`, `batch.jobs.create({ inputFiles, endpoint: '/v1/chat/completions', model })`,
 * `batch.jobs.get({ jobId })` and `files.download({ fileId })`. Input lines are `{ custom_id, body }` (the
 * model is the job's); output lines have OpenAI's batch output shape, read by the same reader. Job
 * states are mapped onto the Batch API's words (QUEUED → validating, RUNNING → in_progress, SUCCESS →
 * completed, TIMEOUT_EXCEEDED → expired …) so one poll loop serves both.
 */
const STATUS: Record<string, BatchState['status']> = {
  QUEUED: 'validating',
  RUNNING: 'in_progress',
  SUCCESS: 'completed',
  FAILED: 'failed',
  TIMEOUT_EXCEEDED: 'expired',
  CANCELLATION_REQUESTED: 'cancelling',
  CANCELLED: 'cancelled',
};

const Count = z.number().int().nonnegative().catch(0);
const JobWire = z.object({
  id: ProviderId,
  status: z.string(),
  outputFile: ProviderId.nullish(),
  errorFile: ProviderId.nullish(),
  totalRequests: Count,
  succeededRequests: Count,
  failedRequests: Count,
});

/** A batch job from the SDK, validated (untrusted provider output) and mapped onto the Batch API's states. */
export function mistralJobState(raw: unknown): BatchState {
  const j = JobWire.safeParse(raw);
  const status = j.success ? STATUS[j.data.status] : undefined;
  if (!j.success || !status) throw new LlmError(LlmErrorCode.BadResponse, `batch: unreadable batch job (${j.success ? `status ${JSON.stringify(j.data.status).slice(0, 40)}` : j.error.issues[0]?.message})`);
  return {
    id: j.data.id,
    status,
    counts: { total: j.data.totalRequests, completed: j.data.succeededRequests, failed: j.data.failedRequests },
    outputFileId: j.data.outputFile ?? null,
    errorFileId: j.data.errorFile ?? null,
  };
}

/** Mistral's API spells the seed `random_seed`; the rest of the OpenAI spelling is its own. */
function mistralBody(body: Record<string, unknown>): Record<string, unknown> {
  const { model: _model, seed, ...rest } = body;
  return seed === undefined ? rest : { ...rest, random_seed: seed };
}

export function mistralBatchApi(settings: BatchSettings): BatchApi {
  type Mistral = import('@mistralai/mistralai').Mistral;
  let sdk: Promise<Mistral> | undefined;
  const load = () => (sdk ??= loadMistral({ apiKey: settings.apiKey, timeoutMs: settings.timeoutMs, ...(settings.baseURL ? { serverURL: settings.baseURL } : {}) }));
  /** One API call, ended by `timeoutMs` even if the server never answers. */
  const call = async <T>(what: string, fn: (client: Mistral, signal: AbortSignal) => Promise<T>): Promise<T> => {
    const client = await load();
    const attempt = attemptSignal(settings.timeoutMs);
    try {
      return await withCallSignal(attempt.signal, () => fn(client, attempt.signal));
    } catch (err) {
      if (attempt.timedOut()) throw new LlmError(LlmErrorCode.Timeout, `batch: ${what}: no reply within ${settings.timeoutMs} ms`, { cause: err });
      throw err;
    } finally {
      attempt.dispose();
    }
  };
  return {
    requestLine: (customId, req) => JSON.stringify({ custom_id: customId, body: mistralBody(batchChatBody(settings.model, settings.sampling, req, settings.structured)) }),
    async upload(jsonl, filename) {
      const f = await call('file upload', (client, signal) => client.files.upload({ file: { fileName: filename, content: Buffer.from(jsonl, 'utf8') }, purpose: 'batch' }, { signal }));
      const id = ProviderId.safeParse(f?.id);
      if (!id.success) throw new LlmError(LlmErrorCode.BadResponse, 'batch: the file upload returned no file id');
      return id.data;
    },
    async create(inputFileId, metadata) {
      return mistralJobState(
        await call('job create', (client, signal) => client.batch.jobs.create({ inputFiles: [inputFileId], endpoint: '/v1/chat/completions', model: settings.model, metadata }, { signal })),
      );
    },
    async retrieve(id) {
      return mistralJobState(await call('job poll', (client, signal) => client.batch.jobs.get({ jobId: id }, { signal })));
    },
    async content(fileId) {
      // The body is read inside the call, so the timeout covers the download too.
      return call('file download', async (client, signal) => new Response(await client.files.download({ fileId }, { signal })).text());
    },
  };
}
