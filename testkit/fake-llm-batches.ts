import type { IncomingMessage } from 'node:http';
import type { FakeFile } from './fake-llm-finetune.js';

/**
 * The Batch API routes of the fake OpenAI-compatible server (files are uploaded through the shared
 * `/v1/files` route of fake-llm-finetune.ts, purpose `batch`):
 *   POST /v1/batches        GET /v1/batches/:id        GET /v1/files/:id/content
 *   POST /v1/batch/jobs     GET /v1/batch/jobs/:id     (Mistral's batch jobs: the same batches, Mistral's shape)
 * A new batch is `validating`; its first status read finds it `in_progress`. It completes on the read
 * after `completeAfterPolls` reads (default 2), unless held (`hold()`), until `release()`. Completion
 * answers every input line through the server's own chat reply functions (queue, default, plausible),
 * so a batched judge reply looks exactly like a live one; lines answered with a non-200 status go to the
 * error file, as OpenAI does. No timers: everything happens on a status read, so tests wait on state.
 */

export interface FakeBatch {
  id: string;
  flavour: 'openai' | 'mistral';
  /** Mistral: the job's model (its input lines carry none). */
  model: string | null;
  inputFileId: string;
  endpoint: string;
  completionWindow: string;
  status: 'validating' | 'in_progress' | 'completed' | 'expired';
  polls: number;
  outputFileId: string | null;
  errorFileId: string | null;
  counts: { total: number; completed: number; failed: number };
}

/** One chat request answered the way the live route would: status and JSON body. */
export type AnswerChat = (body: Record<string, unknown>, path: string) => Promise<{ status: number; json: unknown }>;

export interface FakeBatches {
  readonly batches: FakeBatch[];
  /** Keep new and existing batches `in_progress` until `release()`. */
  hold(): void;
  /** Let held batches complete on their next status read. */
  release(): void;
  /** Make a batch expire on its next status read (its answered lines so far: none). */
  expireNext(): void;
  handle(req: IncomingMessage, path: string, body: Buffer): Promise<{ status: number; json?: unknown; text?: string } | null>;
}

const bad = (message: string, status = 400) => ({ status, json: { error: { message, type: 'invalid_request_error' } } });

export function fakeBatches(files: FakeFile[], answer: AnswerChat, opts: { completeAfterPolls?: number } = {}): FakeBatches {
  const batches: FakeBatch[] = [];
  let held = false;
  let expire = false;
  const completeAfter = opts.completeAfterPolls ?? 2;
  const created = Math.floor(Date.now() / 1000);
  const json = (b: FakeBatch) => (b.flavour === 'mistral' ? mistralJobJson(b, created) : openAiBatchJson(b, created));

  /** A status read: the batch moves on (expires, completes or runs) as described above. */
  async function read(b: FakeBatch) {
    if (b.status !== 'validating' && b.status !== 'in_progress') return;
    b.polls++;
    if (expire) {
      expire = false;
      b.status = 'expired';
    } else if (!held && b.polls >= completeAfter) await complete(b, files, answer);
    else b.status = 'in_progress';
  }

  async function handle(req: IncomingMessage, path: string, body: Buffer) {
    const method = req.method ?? 'GET';
    if (method === 'POST' && (path === '/v1/batches' || path === '/v1/batch/jobs')) {
      const b = createBatch(files, batches, path, body);
      return 'id' in b ? { status: 200, json: json(b) } : b;
    }
    const batchMatch = /^\/v1\/(?:batches|batch\/jobs)\/([^/]+)$/.exec(path);
    if (method === 'GET' && batchMatch) {
      const b = batches.find((x) => x.id === decodeURIComponent(batchMatch[1]!));
      if (!b) return bad('no such batch', 404);
      await read(b);
      return { status: 200, json: json(b) };
    }
    const contentMatch = /^\/v1\/files\/([^/]+)\/content$/.exec(path);
    if (method === 'GET' && contentMatch) {
      const f = files.find((x) => x.id === decodeURIComponent(contentMatch[1]!));
      return f ? { status: 200, text: f.content } : bad('no such file', 404);
    }
    return null;
  }

  return { batches, hold: () => void (held = true), release: () => void (held = false), expireNext: () => void (expire = true), handle };
}

/** A new batch from an OpenAI `POST /v1/batches` or a Mistral `POST /v1/batch/jobs`, or the refusal. */
function createBatch(files: readonly FakeFile[], batches: FakeBatch[], path: string, body: Buffer): FakeBatch | ReturnType<typeof bad> {
  let p: { input_file_id?: string; input_files?: string[]; model?: string; endpoint?: string; completion_window?: string };
  try {
    p = JSON.parse(body.toString('utf8'));
  } catch {
    return bad('body is not JSON');
  }
  const flavour = path === '/v1/batch/jobs' ? 'mistral' : 'openai';
  if (flavour === 'mistral') {
    if (!p.model || p.input_files?.length !== 1) return bad('model and one input file are required');
    p = { ...p, input_file_id: p.input_files[0], completion_window: '24h' };
  }
  const input = files.find((f) => f.id === p.input_file_id);
  if (!input) return bad(`no such file ${String(p.input_file_id)}`, 404);
  if (input.purpose !== 'batch') return bad(`file ${input.id} has purpose ${input.purpose}, not batch`);
  if (p.endpoint !== '/v1/chat/completions' || p.completion_window !== '24h') return bad('endpoint must be /v1/chat/completions and completion_window 24h');
  const total = input.content.split('\n').filter((l) => l.trim()).length;
  const id = flavour === 'openai' ? `batch_fake${batches.length + 1}` : `00000000-fake-batch-0000-${String(batches.length + 1).padStart(12, '0')}`;
  const b: FakeBatch = { id, flavour, model: flavour === 'mistral' ? p.model! : null, inputFileId: input.id, endpoint: p.endpoint, completionWindow: p.completion_window, status: 'validating', polls: 0, outputFileId: null, errorFileId: null, counts: { total, completed: 0, failed: 0 } };
  batches.push(b);
  return b;
}

function addFile(files: FakeFile[], content: string, purpose: string): string {
  const id = `file-fake${files.length + 1}`;
  files.push({ id, filename: `${id}.jsonl`, purpose, content });
  return id;
}

/** Answers every input line as the live route would; non-200 answers go to the error file. */
async function complete(b: FakeBatch, files: FakeFile[], answer: AnswerChat) {
  const input = files.find((f) => f.id === b.inputFileId)!.content;
  const out: string[] = [];
  const errs: string[] = [];
  for (const [i, line] of input.split('\n').filter((l) => l.trim()).entries()) {
    const req = JSON.parse(line) as { custom_id: string; url?: string; body: Record<string, unknown> };
    const res = await answer(b.model ? { ...req.body, model: b.model } : req.body, req.url ?? '/v1/chat/completions');
    const row = { id: `batch_req_fake${i + 1}`, custom_id: req.custom_id, response: { status_code: res.status, request_id: `req_fake${i + 1}`, body: res.json }, error: null };
    (res.status === 200 ? out : errs).push(JSON.stringify(row));
  }
  b.counts = { total: out.length + errs.length, completed: out.length, failed: errs.length };
  if (out.length) b.outputFileId = addFile(files, out.join('\n') + '\n', 'batch_output');
  if (errs.length) b.errorFileId = addFile(files, errs.join('\n') + '\n', 'batch_output');
  b.status = 'completed';
}

const MISTRAL_STATUS = { validating: 'QUEUED', in_progress: 'RUNNING', completed: 'SUCCESS', expired: 'TIMEOUT_EXCEEDED' } as const;

function mistralJobJson(b: FakeBatch, created: number) {
  return {
    id: b.id,
    object: 'batch',
    input_files: [b.inputFileId],
    metadata: null,
    endpoint: b.endpoint,
    model: b.model,
    output_file: b.outputFileId,
    error_file: b.errorFileId,
    errors: [],
    status: MISTRAL_STATUS[b.status],
    created_at: created,
    total_requests: b.counts.total,
    completed_requests: b.counts.completed + b.counts.failed,
    succeeded_requests: b.counts.completed,
    failed_requests: b.counts.failed,
    started_at: b.polls > 0 ? created : null,
    completed_at: b.status === 'completed' ? created : null,
  };
}

function openAiBatchJson(b: FakeBatch, created: number) {
  return {
    id: b.id,
    object: 'batch',
    endpoint: b.endpoint,
    errors: null,
    input_file_id: b.inputFileId,
    completion_window: b.completionWindow,
    status: b.status,
    output_file_id: b.outputFileId,
    error_file_id: b.errorFileId,
    created_at: created,
    in_progress_at: b.polls > 0 ? created : null,
    expires_at: created + 86_400,
    completed_at: b.status === 'completed' ? created : null,
    request_counts: b.counts,
    metadata: null,
  };
}
