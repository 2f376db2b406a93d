import type OpenAI from 'openai';
import { LlmError, LlmErrorCode } from './errors.js';
import type { ClientOptions, StructuredMode } from './options.js';
import { parseRetryAfter, type RetryDeps } from './retry.js';
import { samplingFor } from './sampling.js';
import { humanBotPrompt } from './human-bot-prompt.js';
import { lightPathFits } from './openai-http-fits.js';
import { httpError, SdkClient, usageFrom, type AttemptResult } from './sdk-client.js';
import { structuredLadder } from './structured-ladder.js';
import type { ChatRequest } from './types.js';

export interface OpenAiSettings {
  /** The provider name its calls are recorded under (`openai`, or a registered provider on the same wire). */
  name?: string;
  model: string;
  apiKey: string;
  /** Base URL including `/v1` (the SDK appends `/chat/completions`); undefined = api.openai.com. */
  baseURL: string | undefined;
  options: ClientOptions;
  sampling: Record<string, unknown>;
  /** Send every request through the SDK (tests comparing it with the light path of openai-http.ts). */
  sdkOnly?: boolean;
}

const loadSdk = () => import('openai').then((m) => m.default);
/**
 * The light request path, in its own chunk: a bot process never loads it. Imported once: a dynamic
 * `import()` of a module already loaded still goes through the ESM loader each time, and this ran on
 * every request (twice: `prepare`, then the POST).
 */
let httpModule: Promise<typeof import('./openai-http.js')> | undefined;
const loadHttp = () => (httpModule ??= import('./openai-http.js'));
/** The SDK's endpoint when no base URL is given (it is handed `baseURL: null`, so the env is not read). */
const DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/** The statuses fetch follows when they carry a location (a 307 or 308 re-sent with its body, as the SDK's bodies are strings). */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** lightPost's answer to a redirect: this request and the client's next ones go through the SDK (and fetch's redirects). */
const REDIRECTED = Symbol('redirected');

/**
 * The light request path's POST (openai-http.ts over llm/http1-pool.ts, with the SDK's exact bytes): the reply's JSON
 * body, or the failure as an LlmError the SDK's mapping would give (connection, abort, unreadable reply,
 * HTTP status with its Retry-After).
 */
function lightPost(base: string, apiKey: string, label: string) {
  return async (path: string, body: Record<string, unknown>, signal: AbortSignal): Promise<unknown | typeof REDIRECTED> => {
    const http = await loadHttp();
    let answer: Awaited<ReturnType<typeof http.postJson>>;
    try {
      answer = await http.postJson(base, path, apiKey, body, signal);
    } catch (err) {
      if (err instanceof http.OpenAiConnectionError) throw new LlmError(LlmErrorCode.Connection, `${label}: ${err.message}`, { cause: err });
      if ((err as Error)?.name === 'AbortError') throw new LlmError(LlmErrorCode.Aborted, `${label}: request aborted`, { cause: err });
      if (err instanceof SyntaxError) throw new LlmError(LlmErrorCode.BadResponse, `${label}: unreadable reply: ${err.message}`, { cause: err });
      throw err;
    }
    if (REDIRECTS.has(answer.status) && answer.headers.get('location') !== null) return REDIRECTED;
    if (answer.status < 200 || answer.status > 299) {
      const message = http.sdkErrorMessage(answer.status, String(answer.body));
      throw httpError(label, answer.status, message, parseRetryAfter(answer.headers), new Error(message));
    }
    return answer.body;
  };
}

/**
 * One POST, on the light path while it is taken, else through the SDK. A redirect ends the light path for
 * the client: the SDK sends the request again and fetch follows the redirect, as it would have from the
 * start (the redirecting server answered without acting on the request).
 */
function lightThenSdk(viaHttp: boolean, post: ReturnType<typeof lightPost>, sdkClient: () => Promise<OpenAI>) {
  let light = viaHttp;
  return async (path: string, body: Record<string, unknown>, signal: AbortSignal, viaSdk: (sdk: OpenAI) => Promise<unknown>): Promise<unknown> => {
    if (light) {
      const reply = await post(path, body, signal);
      if (reply !== REDIRECTED) return reply;
      light = false;
    }
    return viaSdk(await sdkClient());
  };
}

/**
 * `openai:<model>` through the official `openai` SDK: OpenAI itself or any OpenAI-compatible server
 * (vLLM, Ollama, Together, llama.cpp) via the base URL. The SDK's own retries are off; `SdkClient` retries.
 */
export function createOpenAiClient(settings: OpenAiSettings, deps?: RetryDeps): SdkClient {
  // The SDK is imported on first use: a process playing a bot or a Mistral seat never loads it.
  let client: Promise<OpenAI> | undefined;
  const sdkClient = () =>
    (client ??= loadSdk().then((OpenAiSdk) => new OpenAiSdk({
      apiKey: settings.apiKey,
      baseURL: settings.baseURL ?? null,
      maxRetries: 0,
      timeout: settings.options.timeoutMs,
    })));
  const name = settings.name ?? 'openai';
  const label = `${name}:${settings.model}`;


  // Non-streaming requests go out through node:http with the SDK's exact bytes (openai-http.ts), unless
  // something only the SDK handles is set; streaming stays with the SDK.
  const viaHttp = !settings.sdkOnly && !settings.options.stream && lightPathFits();
  const base = settings.baseURL ?? DEFAULT_BASE_URL;
  const post = lightPost(base, settings.apiKey, label);
  const request = lightThenSdk(viaHttp, post, sdkClient);

  const send = async (req: ChatRequest, signal: AbortSignal, structured: StructuredMode): Promise<AttemptResult> => {
    if (settings.options.transport === 'completion') return complete(req, signal);
    const body: Record<string, unknown> = {
      ...samplingFor(settings.sampling, req),
      model: settings.model,
      messages: req.messages,
    };
    const format = responseFormat(req, structured);
    if (format) body.response_format = format;
    try {
      if (settings.options.stream) return await streamed(await sdkClient(), body, signal, settings.model, label);
      const completion = (await request('/chat/completions', body, signal, (sdk) => sdk.chat.completions.create(body as never, { signal, maxRetries: 0 }))) as OpenAI.ChatCompletion;
      const choice = completion?.choices?.[0];
      const content = choice?.message?.content;
      if (typeof content !== 'string') {
        throw new LlmError(LlmErrorCode.BadResponse, `${label}: reply has no message content`);
      }
      const result: AttemptResult = { content, usage: usageFrom(completion.usage), model: completion.model || settings.model };
      if (choice?.finish_reason) result.finishReason = choice.finish_reason;
      return result;
    } catch (err) {
      // The light path's failures are LlmErrors already: the SDK is not loaded to map them.
      throw err instanceof LlmError ? err : mapOpenAiError(err, label, await loadSdk());
    }
  };

  // The completion transport: one raw prompt, no response_format (constrained decoding is a chat feature).
  const complete = async (req: ChatRequest, signal: AbortSignal): Promise<AttemptResult> => {
    const body = { ...samplingFor(settings.sampling, req), model: settings.model, prompt: humanBotPrompt(req.messages) };
    try {
      const completion = (await request('/completions', body, signal, (sdk) => sdk.completions.create(body as never, { signal, maxRetries: 0 }))) as OpenAI.Completion;
      const choice = completion?.choices?.[0];
      if (typeof choice?.text !== 'string') throw new LlmError(LlmErrorCode.BadResponse, `${label}: completion has no text`);
      const result: AttemptResult = { content: choice.text, usage: usageFrom(completion.usage), model: completion.model || settings.model };
      if (choice.finish_reason) result.finishReason = choice.finish_reason;
      return result;
    } catch (err) {
      // The light path's failures are LlmErrors already: the SDK is not loaded to map them.
      throw err instanceof LlmError ? err : mapOpenAiError(err, label, await loadSdk());
    }
  };

  // A server that rejects a response_format gets the next rung down, remembered for this model.
  const attempt = structuredLadder(`${name} ${settings.baseURL ?? 'default'} ${settings.model}`, settings.options.structuredOutput, send);
  const sdkShell = new SdkClient(name, settings.model, attempt, settings.options, settings.baseURL ?? 'default', deps, viaHttp ? loadHttp : sdkClient, settings.apiKey);
  // The light path's first request only loads its transport (node:tls for https) beyond what any
  // request runs: a warm-up loads them and sends nothing (the SDK path keeps its throw-away request).
  if (viaHttp) sdkShell.preload = async () => (await loadHttp()).prepareTransport(base);
  return sdkShell;
}

/** `response_format` for the configured structured-output mode, or undefined when none is wanted. */
export function responseFormat(req: ChatRequest, mode: StructuredMode): Record<string, unknown> | undefined {
  if (!req.json || mode === 'off' || mode === 'prompt') return undefined;
  if (mode === 'json_object') return { type: 'json_object' };
  return { type: 'json_schema', json_schema: { name: req.json.name, schema: req.json.schema, strict: true } };
}

async function streamed(
  sdk: OpenAI,
  body: Record<string, unknown>,
  signal: AbortSignal,
  model: string,
  label: string,
): Promise<AttemptResult> {
  const stream = await sdk.chat.completions.create(
    { ...body, stream: true, stream_options: { include_usage: true } } as never,
    { signal, maxRetries: 0 },
  ) as unknown as AsyncIterable<OpenAI.ChatCompletionChunk>;
  let content = '';
  let usage: unknown;
  let reported = model;
  let finishReason: string | undefined;
  for await (const chunk of stream) {
    if (chunk.model) reported = chunk.model;
    if (chunk.usage) usage = chunk.usage;
    const choice = chunk.choices?.[0];
    if (choice?.delta?.content) content += choice.delta.content;
    if (choice?.finish_reason) finishReason = choice.finish_reason;
  }
  if (finishReason === undefined && content === '') throw new LlmError(LlmErrorCode.BadResponse, `${label}: stream ended without content`);
  const result: AttemptResult = { content, usage: usageFrom(usage), model: reported };
  if (finishReason) result.finishReason = finishReason;
  return result;
}

/** SDK error → `LlmError`. Aborts and timeouts are re-classified by `SdkClient`, which knows which signal fired. */
function mapOpenAiError(err: unknown, label: string, OpenAI: typeof import('openai').default): unknown {
  if (err instanceof LlmError) return err;
  if (err instanceof OpenAI.APIConnectionTimeoutError) return new LlmError(LlmErrorCode.Timeout, `${label}: request timed out`, { cause: err });
  if (err instanceof OpenAI.APIUserAbortError) return new LlmError(LlmErrorCode.Aborted, `${label}: request aborted`, { cause: err });
  if (err instanceof OpenAI.APIConnectionError) return new LlmError(LlmErrorCode.Connection, `${label}: ${err.message}`, { cause: err });
  if (err instanceof OpenAI.APIError && typeof err.status === 'number') {
    return httpError(label, err.status, err.message, parseRetryAfter(err.headers), err);
  }
  if (err instanceof Error && err.name === 'AbortError') return new LlmError(LlmErrorCode.Aborted, `${label}: request aborted`, { cause: err });
  return new LlmError(LlmErrorCode.BadResponse, `${label}: unreadable reply: ${(err as Error)?.message ?? String(err)}`, { cause: err });
}
