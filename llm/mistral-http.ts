import { exchange, Http1ConnectionError, prepareOrigin, type Http1Answer } from './http1-pool.js';
import { answerText } from './http1-text.js';

/**
 * The Mistral SDK's non-streamed chat request (`chatComplete`), sent on the kept-alive connections of
 * llm/http1-pool.ts instead of through the SDK's request machinery, its zod schemas and Node's `fetch`.
 * Why: in-process, a call through the SDK cost ~3.9 ms of CPU against ~1.7 for a plain `fetch` of the same
 * body (bench/start-up.md), so a Mistral seat cost ~3 CPU-s more than an OpenAI seat (which takes the same
 * kind of path, openai-http.ts) over a 20-episode run. The bytes sent are the SDK's: its request line, its
 * headers and those `fetch` adds, in their order and spelling, and its body (mistral-http-body.ts);
 * test/llm/mistral-http.test.ts compares both on a raw socket. An answer the SDK would take as it is (a 200
 * of JSON in the shape its schema reads, `plainCompletion`) is read here, and a 4XX or 5XX (not a 422) gives
 * the SDK's error without the SDK (mistral-http-error.ts); any other is judged by the SDK's own matchers
 * (mistral-sdk-verdict.ts), so errors stay the SDK's.
 *
 * The SDK's hooks change nothing here: its user-agent hook's header is in the head below; its tracing
 * hook traces only with `@opentelemetry/api` installed and configured (not a dependency of Parley); its
 * deprecation hook's warning is given by `deprecationWarning`.
 */

/**
 * The SDK's version as its user-agent hook sends it (`SDK_METADATA.sdkVersion`), written here: importing
 * it would load the SDK's runtime bundle in a process from the start-up snapshot, the cost this path
 * avoids. A new SDK version fails test/llm/mistral-http.test.ts (its requests' bytes) until this follows.
 */
export const MISTRAL_SDK_VERSION = '2.7.0';

/** Thrown for a failure before any answer (refused, reset, DNS): the SDK's `ConnectionError` case. */
export class MistralConnectionError extends Error {
  override readonly name = 'MistralConnectionError';
}

/** An answer as the client reads it. */
export interface MistralAnswer {
  status: number;
  headers: { get(name: string): string | null };
  /** The body as `fetch`'s `text()` gives it. */
  text: string;
  /** Every header, lower-case names (the SDK's matchers judge an unusual answer from them: mistral-sdk-verdict.ts). */
  all: ReadonlyMap<string, string>;
}

/** The chat endpoint's URL under a server URL, as the SDK builds it (under the server URL's path, its query dropped). */
export function chatUrl(serverURL: string): URL {
  const base = new URL(serverURL);
  base.pathname = `${base.pathname.replace(/\/+$/, '')}/`;
  const url = new URL('v1/chat/completions', base);
  url.hash = '';
  return url;
}

/** Whether the key can go out as the SDK's `authorization` header (else the SDK sends, or refuses, it). */
export const keyFitsHead = (apiKey: string): boolean => !/[^\t\x20-\x7e]/.test(apiKey.trim());

/**
 * The request's head but for the body's length: `fetch`'s `host` and `connection`, the SDK's headers in the
 * spelling and order its `Headers` keep (`cookie` empty: the SDK sets it from its cookie security, none
 * here), then the ones `fetch` adds.
 */
function headOf(url: URL, apiKey: string): string {
  return (
    `POST ${url.pathname}${url.search} HTTP/1.1\r\n` +
    `host: ${url.host}\r\nconnection: keep-alive\r\n` +
    `Content-Type: application/json\r\nAccept: application/json\r\n` +
    `authorization: ${`Bearer ${apiKey}`.trim()}\r\ncookie: \r\n` +
    `user-agent: mistral-client-typescript/${MISTRAL_SDK_VERSION}\r\n` +
    `accept-language: *\r\nsec-fetch-mode: cors\r\naccept-encoding: gzip, deflate\r\n`
  );
}

/** A client's endpoint: its URL and the head of its requests, made once. */
export interface MistralEndpoint {
  url: URL;
  head: string;
}

export function mistralEndpoint(serverURL: string, apiKey: string): MistralEndpoint {
  const url = chatUrl(serverURL);
  return { url, head: headOf(url, apiKey) };
}

/** Loads what the endpoint's connections need (node:tls for https) ahead of a first request. */
export async function prepareEndpoint(endpoint: MistralEndpoint): Promise<void> {
  await prepareOrigin(endpoint.url);
}

/** POSTs the body's JSON; resolves with the answer, any status. */
export async function postChat(endpoint: MistralEndpoint, json: string, signal: AbortSignal, abortError: (signal: AbortSignal) => Error): Promise<MistralAnswer> {
  const bodyBytes = Buffer.byteLength(json);
  const head = `${endpoint.head}content-length: ${bodyBytes}\r\n\r\n`;
  const bytes = Buffer.allocUnsafe(head.length + bodyBytes);
  bytes.write(head, 0, 'latin1');
  bytes.write(json, head.length, 'utf8');
  if (signal.aborted) throw abortError(signal);
  let reply: Http1Answer;
  try {
    reply = await exchange(endpoint.url, bytes, signal, abortError);
  } catch (err) {
    if (err instanceof Http1ConnectionError) throw new MistralConnectionError('Unable to make request: TypeError: fetch failed', { cause: err.cause ?? err });
    throw err;
  }
  const headers = { get: (name: string) => reply.headers.get(name.toLowerCase()) ?? null };
  return { status: reply.status, headers, text: answerText(reply), all: reply.headers };
}

/** A completion as the seat's client reads it. */
export interface PlainCompletion {
  model: string;
  usage: Record<string, unknown>;
  choices: Array<{ message?: { content?: string | null }; finish_reason: string }>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const optionalInt = (v: unknown) => v === undefined || Number.isSafeInteger(v);

/**
 * The answer's completion when the SDK would accept it as it is and read the same values from it: a 200
 * of `application/json` whose body fits its `ChatCompletionResponse` schema with plain values (string
 * contents, no tool calls). Null otherwise: the SDK's matchers judge it (mistral-sdk-verdict.ts). A body
 * that is not JSON throws JSON.parse's error, as the SDK's matcher does.
 */
export function plainCompletion(answer: MistralAnswer): PlainCompletion | null {
  if (answer.status !== 200) return null;
  const type = answer.headers.get('content-type')?.trim().toLowerCase().split(';')[0]?.trim();
  if (type !== 'application/json') return null;
  const body = JSON.parse(answer.text) as unknown;
  if (!isObject(body) || typeof body.id !== 'string' || typeof body.object !== 'string' || typeof body.model !== 'string' || !Number.isSafeInteger(body.created)) return null;
  const usage = body.usage;
  if (!isObject(usage) || !optionalInt(usage.prompt_tokens) || !optionalInt(usage.completion_tokens) || !optionalInt(usage.total_tokens)) return null;
  // The schema renames these (or reads them as nullable): left to it.
  for (const key of ['prompt_audio_seconds', 'service_tier', 'promptTokens', 'completionTokens', 'totalTokens', 'promptAudioSeconds', 'serviceTier', 'promptTokensDetails']) if (key in usage) return null;
  if (!Array.isArray(body.choices)) return null;
  for (const choice of body.choices as unknown[]) {
    if (!isObject(choice) || !Number.isSafeInteger(choice.index) || typeof choice.finish_reason !== 'string' || choice.messages !== undefined) return null;
    const message = choice.message;
    if (message === undefined) continue;
    if (!isObject(message) || (message.role !== undefined && message.role !== 'assistant')) return null;
    if (!(message.content === undefined || message.content === null || typeof message.content === 'string')) return null;
    if (!(message.tool_calls === undefined || message.tool_calls === null) || !(message.prefix === undefined || typeof message.prefix === 'boolean')) return null;
  }
  return body as unknown as PlainCompletion;
}

/** The SDK's deprecation hook: a model the server marks as deprecated is warned about, once per answer. */
export function deprecationWarning(answer: MistralAnswer): void {
  const when = answer.headers.get('x-model-deprecation-timestamp');
  if (when === null || answer.status >= 400) return;
  let model: unknown;
  try {
    model = (JSON.parse(answer.text) as { model?: unknown }).model;
  } catch {
    return;
  }
  console.warn(`WARNING: The model ${model} is deprecated and will be removed on ${when}. Please refer to https://docs.mistral.ai/getting-started/models/#api-versioning for more information.`);
}
