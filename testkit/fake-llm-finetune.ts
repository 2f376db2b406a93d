import type { IncomingMessage } from 'node:http';
import { fileProblem, OPENAI_MIN_TRAINING_EXAMPLES } from './fake-llm-finetune-files.js';

/**
 * The files and fine-tuning routes of the fake OpenAI/Mistral-compatible server:
 *   POST /v1/files (multipart: file, purpose)      GET /v1/files/:id
 *   POST /v1/fine_tuning/jobs                       GET /v1/fine_tuning/jobs/:id
 * Jobs are deterministic, with no timers: a new job is queued; each status read moves it one step —
 * the first read finds it running, the second finds it succeeded with a fine-tuned model id. The job
 * body's shape follows the caller: OpenAI's (`training_file`) or Mistral's (`training_files`).
 * An OpenAI job's training file is checked as OpenAI checks it before a job starts, by its method
 * (`fake-llm-finetune-files.ts`): chat examples for `supervised`, preference pairs for `dpo`; a file that
 * breaks the format is refused with a 400 naming the line.
 */

export interface FakeFile {
  id: string;
  filename: string;
  purpose: string;
  content: string;
}

export interface FakeJob {
  id: string;
  flavour: 'openai' | 'mistral';
  model: string;
  trainingFile: string;
  validationFile: string | null;
  suffix: string | null;
  /** The training method (OpenAI's `method.type`; absent in the request: supervised). */
  method: string;
  /** Status reads so far. */
  polls: number;
}

export interface FakeFineTuning {
  readonly files: FakeFile[];
  readonly jobs: FakeJob[];
  /** Answers a files / fine-tuning request, or null when the path is not one of these routes. */
  handle(req: IncomingMessage, path: string, body: Buffer): Promise<{ status: number; json: unknown } | null>;
}

const notFound = (what: string) => ({ status: 404, json: { error: { message: `no such ${what}`, type: 'invalid_request_error' } } });
const bad = (message: string) => ({ status: 400, json: { error: { message, type: 'invalid_request_error' } } });

export function fakeFineTuning(): FakeFineTuning {
  const files: FakeFile[] = [];
  const jobs: FakeJob[] = [];
  const created = Math.floor(Date.now() / 1000);

  async function handle(req: IncomingMessage, path: string, body: Buffer) {
    const method = req.method ?? 'GET';
    if (method === 'POST' && path === '/v1/files') return uploadFile(files, req, body, created);
    const fileMatch = /^\/v1\/files\/([^/]+)$/.exec(path);
    if (method === 'GET' && fileMatch) {
      const f = files.find((x) => x.id === decodeURIComponent(fileMatch[1]!));
      return f ? { status: 200, json: fileJson(f, created) } : notFound('file');
    }
    if (method === 'POST' && path === '/v1/fine_tuning/jobs') return createJob(files, jobs, body, created);
    const jobMatch = /^\/v1\/fine_tuning\/jobs\/([^/]+)$/.exec(path);
    if (method === 'GET' && jobMatch) {
      const j = jobs.find((x) => x.id === decodeURIComponent(jobMatch[1]!));
      if (!j) return notFound('job');
      j.polls++;
      return { status: 200, json: jobJson(j, created) };
    }
    return null;
  }

  return { files, jobs, handle };
}

async function uploadFile(files: FakeFile[], req: IncomingMessage, body: Buffer, created: number) {
  const form = await new Request('http://fake/v1/files', { method: 'POST', headers: { 'content-type': req.headers['content-type'] ?? '' }, body }).formData().catch(() => null);
  const file = form?.get('file');
  if (!form || !file || typeof file === 'string') return bad('expected a multipart upload with a file');
  const f: FakeFile = { id: `file-fake${files.length + 1}`, filename: file.name, purpose: String(form.get('purpose') ?? ''), content: await file.text() };
  files.push(f);
  return { status: 200, json: fileJson(f, created) };
}

/** A job in OpenAI's form (`training_file`) or Mistral's (`training_files`), answered in the same form. */
function createJob(files: readonly FakeFile[], jobs: FakeJob[], body: Buffer, created: number) {
  let b: { model?: string; training_file?: string; training_files?: Array<{ file_id: string }>; validation_file?: string; validation_files?: string[]; suffix?: string; method?: { type?: string } };
  try {
    b = JSON.parse(body.toString('utf8'));
  } catch {
    return bad('body is not JSON');
  }
  const flavour = b.training_files ? 'mistral' : 'openai';
  const training = b.training_file ?? b.training_files?.[0]?.file_id;
  const validation = b.validation_file ?? b.validation_files?.[0] ?? null;
  if (!b.model || !training) return bad('model and a training file are required');
  for (const id of [training, ...(validation ? [validation] : [])]) if (!files.some((f) => f.id === id)) return notFound(`file ${id}`);
  const method = b.method?.type ?? 'supervised';
  if (flavour === 'openai') {
    if (method !== 'supervised' && method !== 'dpo') return bad(`method.type: '${method}' is not supported`);
    for (const [id, min] of [[training, OPENAI_MIN_TRAINING_EXAMPLES], ...(validation ? [[validation, 1] as const] : [])] as const) {
      const problem = fileProblem(files.find((f) => f.id === id)!.content, method, min);
      if (problem) return bad(`invalid file ${id}: ${problem}`);
    }
  }
  const j: FakeJob = { id: flavour === 'openai' ? `ftjob-fake${jobs.length + 1}` : `00000000-fake-job0-0000-${String(jobs.length + 1).padStart(12, '0')}`, flavour, model: b.model, trainingFile: training, validationFile: validation, suffix: b.suffix ?? null, method, polls: 0 };
  jobs.push(j);
  return { status: 200, json: jobJson(j, created) };
}

function fileJson(f: FakeFile, created: number) {
  return {
    id: f.id,
    object: 'file',
    bytes: Buffer.byteLength(f.content),
    created_at: created,
    filename: f.filename,
    purpose: f.purpose,
    status: 'processed',
    // Mistral's file fields:
    sample_type: 'instruct',
    source: 'upload',
    num_lines: f.content.split('\n').filter((l) => l.trim()).length,
    deleted: false,
  };
}

/** A job as its provider shows it: queued on the first read, running on the second, succeeded after. */
function jobJson(j: FakeJob, created: number) {
  const status = j.polls === 0 ? 'queued' : j.polls === 1 ? 'running' : 'succeeded';
  const done = status === 'succeeded';
  const tuned = done ? (j.flavour === 'openai' ? `ft:${j.model}:parley-fake:${j.suffix ?? ''}:${j.id.replace(/^ftjob-/, '')}` : `ft:${j.model}:${j.id.slice(-8)}`) : null;
  if (j.flavour === 'mistral') {
    const word = { queued: 'QUEUED', running: 'RUNNING', succeeded: 'SUCCESS' }[status];
    return { id: j.id, object: 'job', model: j.model, status: word, auto_start: true, training_files: [j.trainingFile], validation_files: j.validationFile ? [j.validationFile] : [], fine_tuned_model: tuned, created_at: created, modified_at: created, hyperparameters: {} };
  }
  return {
    id: j.id,
    object: 'fine_tuning.job',
    created_at: created,
    finished_at: done ? created + 60 : null,
    model: j.model,
    fine_tuned_model: tuned,
    organization_id: 'org-fake',
    status,
    training_file: j.trainingFile,
    validation_file: j.validationFile,
    hyperparameters: { n_epochs: 'auto', batch_size: 'auto', learning_rate_multiplier: 'auto' },
    result_files: [],
    trained_tokens: done ? 1000 : null,
    error: null,
    seed: 1,
  };
}
