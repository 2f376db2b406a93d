import { withCallSignal } from './attempt-signal.js';
import { LlmError, LlmErrorCode } from './errors.js';
import type { ClientOptions, StructuredMode } from './options.js';
import { loadMistralChat, type MistralChat, type MistralClientOptions } from './mistral-sdk.js';
import { mistralBodyJson } from './mistral-http-body.js';
import { statusFailure } from './mistral-http-error.js';
import { usesEnvProxy } from './openai-http-fits.js';
import { parseRetryAfter, type RetryDeps } from './retry.js';
import { samplingFor, toMistralSampling } from './sampling.js';
import { httpError, SdkClient, usageFrom, type AttemptResult } from './sdk-client.js';
import { structuredLadder } from './structured-ladder.js';
import type { ChatRequest } from './types.js';

export interface MistralSettings {
  model: string;
  apiKey: string;
  /** Server URL WITHOUT `/v1` (the SDK's paths start with `/v1/`); undefined = api.mistral.ai. */
  serverURL: string | undefined;
  options: ClientOptions;
  sampling: Record<string, unknown>;
  /** Send every request through the SDK (tests comparing it with the light path of mistral-http.ts). */
  sdkOnly?: boolean;
}

/** The SDK's server when none is given. */
const DEFAULT_SERVER_URL = 'https://api.mistral.ai';

/**
 * The light request path (mistral-http.ts, its own chunk: a bot or OpenAI process never loads it), imported
 * once; and the SDK's verdict on the answers it does not read itself (mistral-sdk-verdict.ts), on first need:
 * a 2XX outside the plain shape, a 422, a 1XX or 3XX (a 4XX or 5XX is judged without it: mistral-http-error.ts).
 */
let httpModule: Promise<typeof import('./mistral-http.js')> | undefined;
const loadHttp = () => (httpModule ??= import('./mistral-http.js'));
let verdictModule: Promise<typeof import('./mistral-sdk-verdict.js')> | undefined;
let verdictsAsked = 0;
const loadVerdict = () => {
  verdictsAsked += 1;
  return (verdictModule ??= import('./mistral-sdk-verdict.js'));
};
/** How many answers the light path left to the SDK's matchers so far (tests: an error status does not load them). */
export const sdkVerdictsAsked = (): number => verdictsAsked;

/** The statuses fetch follows when they carry a location: the SDK's path sends such a request again. */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const REDIRECTED = Symbol('redirected');

/**
 * Whether this client's non-streamed chat requests can take the light path: not when the SDK would log
 * them (MISTRAL_DEBUG: any non-empty value, as the SDK coerces it), not through a proxy Node's fetch
 * would take from the environment (openai-http-fits.ts), not with a key the head cannot carry as is.
 */
function lightPathFits(apiKey: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.MISTRAL_DEBUG) return false;
  if (usesEnvProxy(env, process.execArgv)) return false;
  return !/[^\t\x20-\x7e]/.test(apiKey.trim());
}

function abortError(signal: AbortSignal): Error {
  const err = new Error(`request aborted${signal.reason instanceof Error ? `: ${signal.reason.message}` : ''}`, { cause: signal.reason });
  err.name = 'AbortError';
  return err;
}

/** What the seat's client reads of a completion, from the SDK's value or from the plain JSON (field names differ). */
type Completion = { model?: string; usage?: unknown; choices?: Array<{ message?: { content?: unknown } | undefined; finishReason?: unknown; finish_reason?: unknown } | undefined> };

/** The SDK's error classes, imported with the SDK on first use (see `loadMistralChat`). */
const loadErrors = () => import('@mistralai/mistralai/models/errors');

/**
 * `mistral:<model>` through the official `@mistralai/mistralai` SDK's standalone chat functions (see
 * `loadMistralChat`), its retries off (`SdkClient` retries).
 */
export function createMistralClient(settings: MistralSettings, deps?: RetryDeps): SdkClient {
  const sdkOptions: MistralClientOptions = {
    apiKey: settings.apiKey,
    retryConfig: { strategy: 'none' },
    timeoutMs: settings.options.timeoutMs,
  };
  if (settings.serverURL) sdkOptions.serverURL = settings.serverURL;
  let client: Promise<MistralChat> | undefined;
  const sdkClient = () => (client ??= loadMistralChat(sdkOptions));
  const label = `mistral:${settings.model}`;

  // Non-streamed requests go out through llm/http1-pool.ts with the SDK's exact bytes (mistral-http.ts),
  // unless something only the SDK handles is set; streaming stays with the SDK.
  const viaHttp = !settings.sdkOnly && !settings.options.stream && lightPathFits(settings.apiKey);
  let light = viaHttp;
  const lightPath = lightRequests(settings.serverURL ?? DEFAULT_SERVER_URL, settings.apiKey, label);

  const send = async (req: ChatRequest, signal: AbortSignal, structured: StructuredMode): Promise<AttemptResult> => {
    const body: Record<string, unknown> = {
      ...toMistralSampling(samplingFor(settings.sampling, req)),
      model: settings.model,
      messages: req.messages,
    };
    const format = responseFormat(req, structured);
    if (format) body.responseFormat = format;
    const requestOptions = { signal, retries: { strategy: 'none' as const } };
    const json = light ? mistralBodyJson(body) : null;
    if (json !== null) {
      const res = await lightPath.complete(json, signal);
      if (res !== REDIRECTED) return fromCompletion(res, settings.model, label);
      light = false;
    }
    try {
      const sdk = await sdkClient();
      if (settings.options.stream) {
        const stream = unwrap(await withCallSignal(signal, async () => sdk.stream(body as never, requestOptions)));
        let content = '';
        let usage: unknown;
        let model = settings.model;
        let finishReason: string | undefined;
        for await (const event of stream) {
          const chunk = event.data;
          if (chunk.model) model = chunk.model;
          if (chunk.usage) usage = chunk.usage;
          const choice = chunk.choices[0];
          content += textOf(choice?.delta?.content);
          if (choice?.finishReason) finishReason = String(choice.finishReason);
        }
        const result: AttemptResult = { content, usage: usageFrom(usage), model };
        if (finishReason) result.finishReason = finishReason;
        return result;
      }
      return fromCompletion(unwrap(await withCallSignal(signal, async () => sdk.complete(body as never, requestOptions))) as Completion, settings.model, label);
    } catch (err) {
      throw mapMistralError(err, label, await loadErrors());
    }
  };
  // A server that rejects a response_format gets the next rung down, remembered for this model.
  const attempt = structuredLadder(`mistral ${settings.serverURL ?? 'default'} ${settings.model}`, settings.options.structuredOutput, send);
  const shell = new SdkClient('mistral', settings.model, attempt, settings.options, settings.serverURL ?? 'default', deps, viaHttp ? loadHttp : sdkClient, settings.apiKey);
  // The light path's first request only loads its transport (node:tls for https) beyond what any request
  // runs: a warm-up loads them and sends nothing (llm/warm.ts `preloaded`).
  if (viaHttp) shell.preload = lightPath.preload;
  return shell;
}

/**
 * The light path's requests of one client (mistral-http.ts): `complete` posts a body's JSON and gives the
 * completion, or REDIRECTED (the SDK sends it, and the client's next ones); `preload` loads its transport.
 */
function lightRequests(serverURL: string, apiKey: string, label: string) {
  let endpoint: ReturnType<typeof import('./mistral-http.js').mistralEndpoint> | undefined;
  const endpointOf = (http: typeof import('./mistral-http.js')) => (endpoint ??= http.mistralEndpoint(serverURL, apiKey));
  const unreadable = (err: unknown) => new LlmError(LlmErrorCode.BadResponse, `${label}: unreadable reply: ${(err as Error)?.message ?? String(err)}`, { cause: err });
  const complete = async (json: string, signal: AbortSignal): Promise<Completion | typeof REDIRECTED> => {
    const http = await loadHttp();
    const at = endpointOf(http);
    let answer: Awaited<ReturnType<typeof http.postChat>>;
    try {
      answer = await http.postChat(at, json, signal, abortError);
    } catch (err) {
      if (err instanceof http.MistralConnectionError) throw new LlmError(LlmErrorCode.Connection, `${label}: ${err.message}`, { cause: err });
      if ((err as Error)?.name === 'AbortError') throw new LlmError(LlmErrorCode.Aborted, `${label}: request aborted`, { cause: err });
      // A body cut short or undecodable: the SDK's `text()` fails too, and its error is an unreadable reply.
      throw unreadable(err);
    }
    if (REDIRECTS.has(answer.status) && answer.headers.get('location') !== null) return REDIRECTED;
    http.deprecationWarning(answer);
    // A 4XX or 5XX: the SDK's error for it, made without the SDK (mistral-http-error.ts).
    const failed = statusFailure(answer, label);
    if (failed) throw failed;
    let plain: ReturnType<typeof http.plainCompletion>;
    try {
      plain = http.plainCompletion(answer);
    } catch (err) {
      throw unreadable(err);
    }
    if (plain) return plain;
    try {
      return unwrap(await (await loadVerdict()).sdkVerdict(answer, at.url)) as Completion;
    } catch (err) {
      throw mapMistralError(err, label, await loadErrors());
    }
  };
  const preload = async (): Promise<void> => {
    const http = await loadHttp();
    await http.prepareEndpoint(endpointOf(http));
  };
  return { complete, preload };
}

/** The attempt's result from a completion, the SDK's (camelCase) or the light path's plain JSON. */
function fromCompletion(res: Completion, model: string, label: string): AttemptResult {
  const choice = res.choices?.[0];
  const raw = choice?.message?.content;
  if (raw === undefined || raw === null) throw new LlmError(LlmErrorCode.BadResponse, `${label}: reply has no message content`);
  const result: AttemptResult = { content: textOf(raw), usage: usageFrom(res.usage), model: res.model || model };
  const finishReason = choice?.finishReason ?? choice?.finish_reason;
  if (finishReason) result.finishReason = String(finishReason);
  return result;
}

/**
 * The value of a standalone function's Result, or its error thrown: what `Mistral`'s `chat` methods did
 * (`unwrapAsync`), so that `mapMistralError` sees the very errors it always saw.
 */
function unwrap<T>(result: { ok: true; value: T } | { ok: false; error: unknown }): T {
  if (!result.ok) throw result.error;
  return result.value;
}

function responseFormat(req: ChatRequest, mode: StructuredMode): Record<string, unknown> | undefined {
  if (!req.json || mode === 'off' || mode === 'prompt') return undefined;
  if (mode === 'json_object') return { type: 'json_object' };
  return { type: 'json_schema', jsonSchema: { name: req.json.name, schemaDefinition: req.json.schema, strict: true } };
}

/** Mistral content is a string or a list of chunks; only text chunks carry the reply. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((c) => (c && typeof c === 'object' && (c as { type?: string }).type === 'text' ? String((c as { text?: unknown }).text ?? '') : '')).join('');
}

function mapMistralError(err: unknown, label: string, errors: typeof import('@mistralai/mistralai/models/errors')): unknown {
  if (err instanceof LlmError) return err;
  if (err instanceof errors.RequestTimeoutError) return new LlmError(LlmErrorCode.Timeout, `${label}: request timed out`, { cause: err });
  if (err instanceof errors.RequestAbortedError) return new LlmError(LlmErrorCode.Aborted, `${label}: request aborted`, { cause: err });
  if (err instanceof errors.ConnectionError) return new LlmError(LlmErrorCode.Connection, `${label}: ${err.message}`, { cause: err });
  if (err instanceof errors.ResponseValidationError || err instanceof errors.SDKValidationError) {
    return new LlmError(LlmErrorCode.BadResponse, `${label}: reply failed validation: ${err.message.slice(0, 500)}`, { cause: err });
  }
  if (err instanceof errors.MistralError && err.statusCode >= 300) {
    return httpError(label, err.statusCode, err.body || err.message, parseRetryAfter(err.headers), err);
  }
  return new LlmError(LlmErrorCode.BadResponse, `${label}: unreadable reply: ${(err as Error)?.message ?? String(err)}`, { cause: err });
}
