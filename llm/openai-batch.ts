import type OpenAI from 'openai';
import * as z from 'zod';
import { ProviderId } from './provider-id.js';
import { LlmError, LlmErrorCode } from './errors.js';
import type { StructuredMode } from './options.js';
import { responseFormat } from './openai-client.js';
import { samplingFor } from './sampling.js';
import { withSchemaInPrompt } from './structured-ladder.js';
import type { ChatRequest } from './types.js';

/**
 * OpenAI's Batch API (and compatible servers that offer `/v1/files` and `/v1/batches`) through the
 * official SDK, as openai-node documents it: `files.create({ file, purpose: 'batch' })`,
 * `batches.create({ input_file_id, endpoint: '/v1/chat/completions', completion_window: '24h' })`,
 * `batches.retrieve(id)` and `files.content(id)`. What comes back from the server is read through zod:
 * a batch's state is provider output, untrusted like any other.
 */

/** Statuses after which a batch changes no more. */
export const BATCH_TERMINAL = ['completed', 'failed', 'expired', 'cancelled'] as const;
export type BatchTerminal = (typeof BATCH_TERMINAL)[number];

const Count = z.number().int().nonnegative().catch(0);
const BatchWire = z.object({
  id: ProviderId,
  status: z.enum(['validating', 'failed', 'in_progress', 'finalizing', 'completed', 'expired', 'cancelling', 'cancelled']),
  output_file_id: ProviderId.nullish(),
  error_file_id: ProviderId.nullish(),
  request_counts: z.object({ total: Count, completed: Count, failed: Count }).nullish(),
});

/** A batch as Parley tracks it. */
export interface BatchState {
  id: string;
  status: z.infer<typeof BatchWire>['status'];
  counts: { total: number; completed: number; failed: number };
  outputFileId: string | null;
  errorFileId: string | null;
}

export interface BatchApi {
  /** One line of the input file: the request under its custom_id, in this provider's batch format. */
  requestLine(customId: string, req: ChatRequest): string;
  /** Uploads a JSONL input file (purpose `batch`); returns its file id. */
  upload(jsonl: string, filename: string): Promise<string>;
  create(inputFileId: string, metadata: Record<string, string>): Promise<BatchState>;
  retrieve(id: string): Promise<BatchState>;
  /** A file's text (output or error file). */
  content(fileId: string): Promise<string>;
}

/** A batch object from the server, validated (untrusted provider output). */
export function stateOf(raw: unknown): BatchState {
  const b = BatchWire.safeParse(raw);
  if (!b.success) throw new LlmError(LlmErrorCode.BadResponse, `batch: unreadable batch object (${b.error.issues[0]?.path.join('.')}: ${b.error.issues[0]?.message})`);
  return {
    id: b.data.id,
    status: b.data.status,
    counts: b.data.request_counts ?? { total: 0, completed: 0, failed: 0 },
    outputFileId: b.data.output_file_id ?? null,
    errorFileId: b.data.error_file_id ?? null,
  };
}

/** What a batch client needs: the endpoint and key a judge client would use (create-client.ts resolveProvider), and how it writes requests. */
export interface BatchSettings {
  apiKey: string;
  baseURL: string | undefined;
  timeoutMs: number;
  model: string;
  sampling: Record<string, unknown>;
  structured: StructuredMode;
}

/** The Batch API of OpenAI or a compatible server. */
export function openAiBatchApi(settings: BatchSettings): BatchApi {
  let sdk: Promise<{ client: OpenAI; toFile: typeof import('openai').toFile }> | undefined;
  const load = () =>
    (sdk ??= import('openai').then((m) => ({ client: new m.default({ apiKey: settings.apiKey, baseURL: settings.baseURL ?? null, timeout: settings.timeoutMs, maxRetries: 4 }), toFile: m.toFile })));
  return {
    requestLine: (customId, req) => JSON.stringify({ custom_id: customId, method: 'POST', url: '/v1/chat/completions', body: batchChatBody(settings.model, settings.sampling, req, settings.structured) }),
    async upload(jsonl, filename) {
      const { client, toFile } = await load();
      const file = await client.files.create({ file: await toFile(Buffer.from(jsonl, 'utf8'), filename), purpose: 'batch' });
      const id = ProviderId.safeParse(file?.id);
      if (!id.success) throw new LlmError(LlmErrorCode.BadResponse, 'batch: the file upload returned no file id');
      return id.data;
    },
    async create(inputFileId, metadata) {
      const { client } = await load();
      return stateOf(await client.batches.create({ input_file_id: inputFileId, endpoint: '/v1/chat/completions', completion_window: '24h', metadata }));
    },
    async retrieve(id) {
      const { client } = await load();
      return stateOf(await client.batches.retrieve(id));
    },
    async content(fileId) {
      const { client } = await load();
      return (await client.files.content(fileId)).text();
    },
  };
}

/**
 * The `/v1/chat/completions` body of one batched request: what the live client would send on the
 * configured rung of the structured-output ladder. A batch cannot step down the ladder mid-way, so a
 * server that rejects `response_format` needs `--param structuredOutput=prompt` (the schema in the prompt).
 */
export function batchChatBody(model: string, sampling: Record<string, unknown>, req: ChatRequest, mode: StructuredMode): Record<string, unknown> {
  const sent = mode === 'prompt' ? withSchemaInPrompt(req) : req;
  const body: Record<string, unknown> = { ...samplingFor(sampling, sent), model, messages: sent.messages };
  const format = responseFormat(sent, mode);
  if (format) body['response_format'] = format;
  return body;
}
