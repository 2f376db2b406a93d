import { appendFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { fakeBatches, type FakeBatches } from './fake-llm-batches.js';
import { fakeFineTuning, type FakeFineTuning } from './fake-llm-finetune.js';
import { plausibleReply, type ChatBody } from './fake-llm-plausible.js';
import { completion, promptCache, sendJson, sendStream } from './fake-llm-wire.js';

export { promptJson } from './fake-llm-wire.js';

/**
 * A fake OpenAI- and Mistral-compatible chat server on 127.0.0.1 for tests and manual checks.
 * `POST /v1/chat/completions` answers with the full response shape both official SDKs validate
 * (id, object, created, model, choices[].message/finish_reason, usage with prompt_tokens_details),
 * plain or streamed (SSE), and each request's behaviour is scriptable: queued replies, a default
 * (by default: plausible Parley moves and scripts), 429 with `Retry-After`, 5xx, slow and malformed replies.
 * `POST /v1/completions` (the completion transport) is scripted the same way and answers `choices[].text`.
 * The files and fine-tuning routes (`/v1/files`, `/v1/fine_tuning/jobs`) are in `fake-llm-finetune.ts`,
 * the Batch API (`/v1/batches`, `/v1/files/:id/content`) in `fake-llm-batches.ts`.
 *
 *   tsx testkit/fake-llm-server.ts --port 8765    # OPENAI_BASE_URL=http://127.0.0.1:8765/v1, MISTRAL_BASE_URL=http://127.0.0.1:8765
 */

/** What the server does with one request. */
export type FakeReply =
  /** A chat completion whose message content is `content`. */
  | { kind: 'content'; content: string; delayMs?: number; finishReason?: string; usage?: { prompt?: number; completion?: number; cached?: number } }
  /**
   * The plausible Parley answer for this request (`usage` overrides the token counts the server reports;
   * `leaveFrom`, the turn a seat leaves at, default 4).
   */
  | { kind: 'plausible'; delayMs?: number; usage?: { prompt?: number; completion?: number; cached?: number }; leaveFrom?: number }
  /** An error status with an OpenAI-style error body and an optional `Retry-After` header. */
  | { kind: 'status'; status: number; retryAfter?: string; message?: string; delayMs?: number }
  /** A raw HTTP body (e.g. not JSON, or JSON missing required fields). */
  | { kind: 'raw'; body: string; status?: number; contentType?: string; delayMs?: number }
  /** Never answer (until the client gives up or the server closes). */
  | { kind: 'hang' };

export type ReplyFn = (req: ReceivedRequest) => FakeReply | Promise<FakeReply>;

/** A request as the server received it. */
export interface ReceivedRequest {
  n: number;
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** Parsed JSON body (undefined if it was not JSON). */
  body: ChatBody & Record<string, unknown>;
  receivedAt: number;
  /** Set for a request that came as a line of a batch input file (answered when the batch completes). */
  viaBatch?: string;
}

/** Shorthands for scripting replies. */
export const reply = {
  text: (content: string, extra: Partial<Extract<FakeReply, { kind: 'content' }>> = {}): FakeReply => ({ kind: 'content', content, ...extra }),
  json: (value: unknown): FakeReply => ({ kind: 'content', content: JSON.stringify(value) }),
  plausible: (delayMs?: number): FakeReply => (delayMs ? { kind: 'plausible', delayMs } : { kind: 'plausible' }),
  rateLimited: (retryAfter = '1'): FakeReply => ({ kind: 'status', status: 429, retryAfter, message: 'Rate limit reached (fake)' }),
  serverError: (status = 500): FakeReply => ({ kind: 'status', status, message: 'The server had an error (fake)' }),
  slow: (delayMs: number, content?: string): FakeReply => (content === undefined ? { kind: 'plausible', delayMs } : { kind: 'content', content, delayMs }),
  raw: (body: string, status = 200): FakeReply => ({ kind: 'raw', body, status }),
  hang: (): FakeReply => ({ kind: 'hang' }),
};

export interface FakeLlmServer extends AsyncDisposable {
  /** `http://127.0.0.1:PORT` — the Mistral SDK's `serverURL` / `MISTRAL_BASE_URL`. */
  readonly url: string;
  /** `http://127.0.0.1:PORT/v1` — the OpenAI SDK's `baseURL` / `OPENAI_BASE_URL`. */
  readonly openaiBaseURL: string;
  readonly port: number;
  /** Every chat request received, in arrival order (none with `keepRequests: false`). */
  readonly requests: ReceivedRequest[];
  /** How many chat requests were received (kept or not). */
  readonly requestCount: number;
  /** TCP connections accepted so far (requests ÷ connections: how well clients keep connections alive). */
  readonly connections: number;
  /** Requests held by a `hang` reply whose client has not gone away yet. */
  readonly hanging: number;
  /** Uploaded files and fine-tuning jobs (`/v1/files`, `/v1/fine_tuning/jobs`; see fake-llm-finetune.ts). */
  readonly fineTuning: FakeFineTuning;
  /** Batches (`/v1/batches`; see fake-llm-batches.ts): hold, release, expire. */
  readonly batches: FakeBatches;
  /** Replies used, in order, before the default. */
  enqueue(...replies: Array<FakeReply | ReplyFn>): void;
  /** Reply used once the queue is empty (initially: plausible). */
  setDefault(reply: FakeReply | ReplyFn): void;
  /** Env vars pointing both providers at this server (with dummy keys). */
  env(): Record<string, string>;
  close(): Promise<void>;
}

export interface FakeLlmServerOptions {
  port?: number;
  host?: string;
  default?: FakeReply | ReplyFn;
  /** When set, requests without `Authorization: Bearer <key>` get 401. */
  requireKey?: string;
  /**
   * Answer 400 to any request carrying a `response_format` (JSON schema or JSON mode), as OpenAI's
   * gpt-4-0613 does: clients must fall back to asking for JSON in the prompt.
   */
  rejectResponseFormat?: boolean;
  /** A batch completes on this status read unless held (default 2). */
  batchCompleteAfterPolls?: number;
  /**
   * false: count the requests without keeping them (`requests` stays empty). For benchmarks: keeping
   * thousands of prompts made garbage collection a third of the server's CPU, on the machine measured.
   */
  keepRequests?: boolean;
}

type Body = ChatBody & Record<string, unknown>;

/** The scripted side of the server: what was received, the replies queued, the default, the usage meter. */
class ReplyScript {
  readonly requests: ReceivedRequest[] = [];
  /** Requests received, kept or not: the next one's `n`. */
  count = 0;
  readonly queue: Array<FakeReply | ReplyFn> = [];
  readonly usageFor = promptCache();
  readonly timers = new Set<NodeJS.Timeout>();
  /** Requests held by a `hang` reply, until their connection closes. */
  hanging = 0;
  fallback: FakeReply | ReplyFn;

  constructor(readonly options: FakeLlmServerOptions) {
    this.fallback = options.default ?? { kind: 'plausible' };
  }

  /** Records the request and picks its reply: the next queued one, else the default. */
  async plan(received: ReceivedRequest): Promise<FakeReply> {
    this.record(received);
    const next = this.queue.length ? this.queue.shift()! : this.fallback;
    return typeof next === 'function' ? await next(received) : next;
  }

  record(received: ReceivedRequest): void {
    this.count += 1;
    if (this.options.keepRequests !== false) this.requests.push(received);
  }

  /** Waits `ms` (a scripted delay): false when the client went away meanwhile. */
  wait(ms: number, res: ServerResponse): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      if (!ms) return resolve(true);
      const t = setTimeout(() => {
        this.timers.delete(t);
        resolve(!res.destroyed);
      }, ms);
      this.timers.add(t);
      res.once('close', () => {
        clearTimeout(t);
        this.timers.delete(t);
        resolve(false);
      });
    });
  }
}

/**
 * One line of a batch input file, answered as the live chat route would answer it (recorded in
 * `requests` with `viaBatch`): the same queue, default and plausible replies, with no delays; a reply
 * that never answers (`hang`) becomes a 504, as a request the batch could not finish.
 */
async function answerBatchLine(script: ReplyScript, body: Record<string, unknown>, path: string): Promise<{ status: number; json: unknown }> {
  const chatBody = body as Body;
  const received: ReceivedRequest = { n: script.count, method: 'POST', path, headers: {}, body: chatBody, receivedAt: Date.now(), viaBatch: path };
  if (script.options.rejectResponseFormat && chatBody.response_format !== undefined) {
    script.record(received);
    return { status: 400, json: { error: { message: "Invalid parameter: 'response_format' is not supported with this model. (fake)", type: 'invalid_request_error', param: 'response_format', code: null } } };
  }
  const plan = await script.plan(received);
  if (plan.kind === 'hang') return { status: 504, json: { error: { message: 'request did not finish (fake hang)', type: 'server_error' } } };
  if (plan.kind === 'status') return { status: plan.status, json: { error: { message: plan.message ?? `fake ${plan.status}`, type: plan.status >= 500 ? 'server_error' : 'invalid_request_error' } } };
  if (plan.kind === 'raw') {
    try {
      return { status: plan.status ?? 200, json: JSON.parse(plan.body) };
    } catch {
      return { status: plan.status ?? 200, json: plan.body };
    }
  }
  const content = plan.kind === 'plausible' ? plausibleReply(chatBody, plan.leaveFrom) : plan.content;
  return { status: 200, json: completion(received.n, chatBody, content, plan.kind === 'content' ? (plan.finishReason ?? 'stop') : 'stop', script.usageFor(chatBody, content, plan.usage)) };
}

/** `POST /v1/chat/completions` and `/v1/completions` (Together, vLLM: a raw prompt in, `choices[].text` out), scripted alike. */
async function answerCompletion(script: ReplyScript, req: IncomingMessage, res: ServerResponse, path: string, raw: Buffer) {
  const textCompletion = path === '/v1/completions';
  let body: Body;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    return sendJson(res, 400, { error: { message: 'body is not JSON', type: 'invalid_request_error' } });
  }
  const received: ReceivedRequest = { n: script.count, method: req.method!, path, headers: req.headers, body, receivedAt: Date.now() };
  if (script.options.rejectResponseFormat && (body.response_format !== undefined || body.responseFormat !== undefined)) {
    script.record(received);
    const type = (body.response_format as { type?: string } | undefined)?.type ?? 'json_object';
    return sendJson(res, 400, { error: { message: `Invalid parameter: 'response_format' of type '${type}' is not supported with this model. (fake)`, type: 'invalid_request_error', param: 'response_format', code: null } });
  }
  const plan = await script.plan(received);
  if (plan.kind === 'hang') {
    if (res.destroyed) return;
    script.hanging += 1;
    res.once('close', () => void (script.hanging -= 1));
    return;
  }
  if (!(await script.wait(plan.delayMs ?? 0, res))) return;
  if (plan.kind === 'status') {
    const headers: Record<string, string> = plan.retryAfter !== undefined ? { 'retry-after': plan.retryAfter } : {};
    const type = plan.status === 429 ? 'rate_limit_exceeded' : plan.status >= 500 ? 'server_error' : 'invalid_request_error';
    return sendJson(res, plan.status, { error: { message: plan.message ?? `fake ${plan.status}`, type, code: type } }, headers);
  }
  if (plan.kind === 'raw') {
    res.writeHead(plan.status ?? 200, { 'content-type': plan.contentType ?? 'application/json' });
    return res.end(plan.body);
  }
  // A raw prompt gets the plausible answer to the same text sent as one user message.
  const asChat = textCompletion ? { ...body, messages: [{ role: 'user', content: String(body.prompt ?? '') }] } : body;
  const content = plan.kind === 'plausible' ? plausibleReply(asChat as typeof body, plan.leaveFrom) : plan.content;
  const finishReason = plan.kind === 'content' ? (plan.finishReason ?? 'stop') : 'stop';
  const usage = script.usageFor(body, content, plan.usage);
  if (textCompletion) {
    return sendJson(res, 200, {
      id: `cmpl-fake-${received.n}`, object: 'text_completion', created: Math.floor(Date.now() / 1000), model: body.model ?? 'fake-model',
      choices: [{ index: 0, text: content, logprobs: null, finish_reason: finishReason }], usage,
    });
  }
  if (body.stream === true) return sendStream(res, received.n, body, content, finishReason, usage);
  sendJson(res, 200, completion(received.n, body, content, finishReason, usage));
}

/** Routes one request: the key check, the batch and fine-tuning routes, then the completion routes. */
async function route(script: ReplyScript, batches: FakeBatches, fineTuning: FakeFineTuning, req: IncomingMessage, res: ServerResponse) {
  const raw = await readBody(req);
  const path = (req.url ?? '/').split('?')[0]!;
  const { requireKey } = script.options;
  if (requireKey && req.headers.authorization !== `Bearer ${requireKey}`) {
    return sendJson(res, 401, { error: { message: 'invalid api key (fake)', type: 'invalid_request_error', code: 'invalid_api_key' } });
  }
  // The completion routes first: nearly every request is one, and neither the batch nor the files routes
  // answer these paths.
  if (req.method === 'POST' && (path === '/v1/chat/completions' || path === '/v1/completions')) return answerCompletion(script, req, res, path, raw);
  const batch = await batches.handle(req, path, raw);
  if (batch) {
    if (batch.text === undefined) return sendJson(res, batch.status, batch.json);
    res.writeHead(batch.status, { 'content-type': 'application/octet-stream', 'content-length': Buffer.byteLength(batch.text) });
    return res.end(batch.text);
  }
  const ft = await fineTuning.handle(req, path, raw);
  if (ft) return sendJson(res, ft.status, ft.json);
  return sendJson(res, 404, { error: { message: `no route ${req.method} ${path}`, type: 'invalid_request_error' } });
}

/**
 * A request's body, read with 'data' and 'end' listeners (no async iterator, no copy for a body that came
 * in one chunk): paper-scale alone sends ~9,000 requests to one server in its vitest worker.
 */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

/** Starts the server (port 0 = any free port). */
export async function startFakeLlmServer(options: FakeLlmServerOptions = {}): Promise<FakeLlmServer> {
  const script = new ReplyScript(options);
  const fineTuning = fakeFineTuning();
  // A batch line is answered by the same reply functions as a live request (see answerBatchLine).
  const batches = fakeBatches(fineTuning.files, (body, path) => answerBatchLine(script, body, path), { completeAfterPolls: options.batchCompleteAfterPolls ?? 2 });
  const server: Server = createServer((req, res) => {
    route(script, batches, fineTuning, req, res).catch((err) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: `fake server bug: ${(err as Error).message}`, type: 'server_error' } });
      else res.destroy();
    });
  });
  server.on('clientError', (_err, socket) => socket.destroy());
  let connections = 0;
  server.on('connection', () => void (connections += 1));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${options.host ?? '127.0.0.1'}:${port}`;
  let closed = false;

  const close = async () => {
    if (closed) return;
    closed = true;
    for (const t of script.timers) clearTimeout(t);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };

  return {
    url,
    openaiBaseURL: `${url}/v1`,
    port,
    requests: script.requests,
    get requestCount() {
      return script.count;
    },
    get connections() {
      return connections;
    },
    get hanging() {
      return script.hanging;
    },
    fineTuning,
    batches,
    enqueue: (...replies) => void script.queue.push(...replies),
    setDefault: (r) => void (script.fallback = r),
    env: () => ({ OPENAI_API_KEY: 'x', OPENAI_BASE_URL: `${url}/v1`, MISTRAL_API_KEY: 'x', MISTRAL_BASE_URL: url }),
    close,
    [Symbol.asyncDispose]: close,
  };
}

// Standalone: `tsx testkit/fake-llm-server.ts [--port P] [--rate-limit N] [--retry-after S] [--reject-response-format] [--delay MS] [--log FILE]`
// --delay: every plausible reply after MS (latency-bound benchmarks); --log: one JSON line per request
// received, `{"n":…,"t":<epoch ms>,"model":…}` (check request rates: any 60 s window, e.g. for --rpm).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  const server = await startFakeLlmServer({ port: Number(arg('--port') ?? 0), rejectResponseFormat: process.argv.includes('--reject-response-format') });
  const delayMs = Number(arg('--delay') ?? 0);
  const logFile = arg('--log');
  if (delayMs > 0 || logFile) {
    server.setDefault((r) => {
      if (logFile) appendFileSync(logFile, `${JSON.stringify({ n: r.n, t: r.receivedAt, model: r.body.model ?? null })}\n`);
      return reply.plausible(delayMs);
    });
  }
  const limited = Number(arg('--rate-limit') ?? 0);
  for (let i = 0; i < limited; i++) server.enqueue(reply.rateLimited(arg('--retry-after') ?? '1'));
  console.log(`fake LLM server on ${server.url}`);
  for (const [k, v] of Object.entries(server.env())) console.log(`  export ${k}=${v}`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
