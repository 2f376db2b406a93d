import { VERSION } from 'openai/version';
import { SDK_ARCH_NAMES, SDK_OS_NAMES } from './openai-http-fits.js';
import { exchange, Http1ConnectionError, prepareOrigin, type Http1Answer } from './http1-pool.js';
import { answerText } from './http1-text.js';
// The body's JSON as JSON.stringify writes it, its messages' bytes made once for the seat's cassette line too.
import { piecesBytes, piecesLength, piecesWithMessages, type JsonPiece } from './messages-json.js';

/**
 * The `openai` SDK's non-streaming requests, sent on kept-alive HTTP/1.1 connections of our own
 * (llm/http1-pool.ts; `node:http` before it) instead of the SDK's request machinery and Node's `fetch`. Why: in an agent process the SDK and `fetch` (undici: its Request,
 * Headers and web streams, its WebAssembly HTTP parser) were the largest part of a turn's CPU and of the
 * process's memory (a warm LLM seat's profile: bench/agent-profile.md; 200 `fetch` calls raise a process's
 * peak RSS by ~45 MB, `node:http` by ~9). The bytes sent are the SDK's, byte for byte: the request line,
 * the SDK's headers in its order and spelling, the ones `fetch` adds, and the SDK's JSON body
 * (test/llm/openai-http.test.ts compares both on a raw socket); answers and failures become the same
 * results and errors as through the SDK. Streaming, and anything the SDK would read from the environment
 * (OPENAI_ORG_ID, OPENAI_PROJECT_ID), stay with the SDK (`lightPathFits`).
 */

export interface OpenAiHttpAnswer {
  status: number;
  /** Parsed JSON for a JSON answer (undefined when empty), the text otherwise, null for 204: as the SDK returns it. */
  body: unknown;
  headers: { get(name: string): string | null };
}

/** Thrown for a failure before any answer (refused, reset, DNS): the SDK's `APIConnectionError` case. */
export class OpenAiConnectionError extends Error {
  override readonly name = 'OpenAiConnectionError';
}

/** The SDK's message of an HTTP error answer (`APIError.makeMessage` over the body as the SDK reads it). */
export function sdkErrorMessage(status: number, text: string): string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const error = (json as { error?: unknown } | null | undefined)?.error as { message?: unknown } | undefined;
  const msg = error?.message
    ? typeof error.message === 'string' ? error.message : JSON.stringify(error.message)
    : error ? JSON.stringify(error) : json ? undefined : text;
  if (status && msg) return `${status} ${msg}`;
  return `${status} status code (no body)`;
}

/** The SDK's platform headers (X-Stainless-*), in its order. */
function platformHeaders(): Array<[string, string]> {
  return [
    ['X-Stainless-Lang', 'js'],
    ['X-Stainless-Package-Version', VERSION],
    ['X-Stainless-OS', SDK_OS_NAMES[process.platform]!],
    ['X-Stainless-Arch', SDK_ARCH_NAMES[process.arch]!],
    ['X-Stainless-Runtime', 'node'],
    ['X-Stainless-Runtime-Version', process.version],
  ];
}

/** Header values as `fetch`'s Headers keep them: leading and trailing HTTP whitespace removed. */
const httpTrim = (v: string) => v.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');

/** Loads what `baseURL`'s connections need (node:tls for https) ahead of a first request. */
export async function prepareTransport(baseURL: string): Promise<void> {
  await prepareOrigin(new URL(baseURL));
}

/** The SDK's URL for `path` under `baseURL` (its `buildURL`, without queries: these requests have none). */
export function sdkUrl(baseURL: string, path: string): URL {
  return new URL(baseURL + (baseURL.endsWith('/') && path.startsWith('/') ? path.slice(1) : path));
}

/** Parsed URLs by base and path: a process posts to one or two endpoints, every turn. Never mutated. */
const urls = new Map<string, URL>();
function urlFor(baseURL: string, path: string): URL {
  const key = `${baseURL}\u0000${path}`;
  let url = urls.get(key);
  if (!url) {
    url = sdkUrl(baseURL, path);
    // Bounded: base URLs come from the seats' configs, a handful per process.
    if (urls.size >= 32) urls.clear();
    urls.set(key, url);
  }
  return url;
}

/**
 * Headers in the order and spelling they reach the wire through the SDK and `fetch`: fetch's `host` and
 * `connection`, the SDK's own (Accept, User-Agent, retry count, platform, authorization, content type),
 * the ones fetch adds (accept-language, sec-fetch-mode, accept-encoding), then the body's length.
 */
export function sdkHeaders(url: URL, apiKey: string, bodyBytes: number): Array<[string, string]> {
  const sdk: Array<[string, string]> = [
    ['Accept', 'application/json'],
    ['User-Agent', `OpenAI/JS ${VERSION}`],
    ['X-Stainless-Retry-Count', '0'],
    ...platformHeaders(),
    ['authorization', `Bearer ${apiKey}`],
    ['content-type', 'application/json'],
  ];
  return [
    ['host', url.host],
    ['connection', 'keep-alive'],
    ...sdk.map(([k, v]): [string, string] => [k, httpTrim(v)]),
    ['accept-language', '*'],
    ['sec-fetch-mode', 'cors'],
    ['accept-encoding', 'gzip, deflate'],
    ['content-length', String(bodyBytes)],
  ];
}

/**
 * The request's head but for the body's length, by URL and key: the same for every request of a client
 * (built per request, it was ~17 arrays and 11 regular-expression trims a turn). Bounded like `urls`; the
 * key is part of the map's key, never logged.
 */
const heads = new Map<string, string>();
function headFor(url: URL, apiKey: string): string {
  const key = `${url.href}\u0000${apiKey}`;
  let head = heads.get(key);
  if (head === undefined) {
    head = `POST ${url.pathname}${url.search} HTTP/1.1\r\n`;
    for (const [name, value] of sdkHeaders(url, apiKey, 0).slice(0, -1)) {
      // As node:http refused them (its ERR_INVALID_CHAR): a value must not break the head.
      if (/[^\t\x20-\x7e\x80-\xff]/.test(value)) throw Object.assign(new TypeError(`Invalid character in header content ["${name}"]`), { code: 'ERR_INVALID_CHAR' });
      head += `${name}: ${value}\r\n`;
    }
    if (heads.size >= 32) heads.clear();
    heads.set(key, head);
  }
  return head;
}

/** The whole request in one buffer (one write): the head as latin1, as node:http wrote it, then the JSON body. */
function requestBytes(url: URL, apiKey: string, body: readonly JsonPiece[]): Buffer {
  const bodyBytes = piecesLength(body);
  return piecesBytes(body, bodyBytes, `${headFor(url, apiKey)}content-length: ${bodyBytes}\r\n\r\n`);
}

/** POSTs `body` (JSON) to `path` under `baseURL` as the SDK would; resolves with the answer, any status. */
export async function postJson(baseURL: string, path: string, apiKey: string, body: unknown, signal: AbortSignal): Promise<OpenAiHttpAnswer> {
  const url = urlFor(baseURL, path);
  const bytes = requestBytes(url, apiKey, piecesWithMessages(body));
  if (signal.aborted) throw abortError(signal);
  let reply: Http1Answer;
  try {
    reply = await exchange(url, bytes, signal, abortError);
  } catch (err) {
    if (err instanceof Http1ConnectionError) throw new OpenAiConnectionError('Connection error.', { cause: err.cause ?? err });
    throw err;
  }
  return answer(reply, answerText(reply));
}

function abortError(signal: AbortSignal): Error {
  const err = new Error(`request aborted${signal.reason instanceof Error ? `: ${signal.reason.message}` : ''}`, { cause: signal.reason });
  err.name = 'AbortError';
  return err;
}

/** What the SDK makes of an answer: JSON parsed for a JSON media type, text otherwise, null for 204. */
function answer(reply: Http1Answer, text: string): OpenAiHttpAnswer {
  const status = reply.status;
  const headers = { get: (name: string) => reply.headers.get(name.toLowerCase()) ?? null };
  if (status < 200 || status >= 300) return { status, body: text, headers };
  if (status === 204) return { status, body: null, headers };
  const mediaType = headers.get('content-type')?.split(';')[0]?.trim();
  const isJson = mediaType?.includes('application/json') || mediaType?.endsWith('+json');
  if (!isJson) return { status, body: text, headers };
  if (headers.get('content-length') === '0') return { status, body: undefined, headers };
  // Parse errors surface as the SDK's do (a SyntaxError from JSON.parse), mapped by the caller.
  return { status, body: JSON.parse(text) as unknown, headers };
}
