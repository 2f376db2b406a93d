import { request as httpRequest, Agent as HttpAgent, type IncomingMessage } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { VERSION } from 'openai/version';
import { SDK_ARCH_NAMES, SDK_OS_NAMES } from './openai-http-fits.js';

/**
 * The `openai` SDK's non-streaming requests, sent with `node:http(s)` instead of the SDK's request
 * machinery and Node's `fetch`. Why: in an agent process the SDK and `fetch` (undici: its Request,
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

let httpAgent: HttpAgent | undefined;
let https: Promise<{ agent: HttpsAgent; request: typeof import('node:https').request }> | undefined;

/**
 * Keep-alive agents, as `fetch` keeps connections (one per process), and the request function that goes
 * with each; https is loaded on first use only, once.
 */
function transportFor(url: URL): Promise<{ agent: HttpAgent | HttpsAgent; request: typeof httpRequest }> | { agent: HttpAgent; request: typeof httpRequest } {
  if (url.protocol === 'http:') return { agent: (httpAgent ??= new HttpAgent({ keepAlive: true })), request: httpRequest };
  return (https ??= import('node:https').then((m) => ({ agent: new m.Agent({ keepAlive: true }), request: m.request })));
}

/** Loads the transport of `baseURL` (node:http or node:https, its keep-alive agent) ahead of a first request. */
export async function prepareTransport(baseURL: string): Promise<void> {
  await transportFor(new URL(baseURL));
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
 * The flat header list of `sdkHeaders` but for the body's length, by URL and key: the same for every
 * request of a client (built per request, it was ~17 arrays and 11 regular-expression trims a turn).
 * Bounded like `urls`; the key is part of the map's key, never logged.
 */
const headPrefixes = new Map<string, string[]>();
function flatHeaders(url: URL, apiKey: string, bodyBytes: number): string[] {
  const key = `${url.href}\u0000${apiKey}`;
  let prefix = headPrefixes.get(key);
  if (!prefix) {
    prefix = sdkHeaders(url, apiKey, 0).slice(0, -1).flat();
    if (headPrefixes.size >= 32) headPrefixes.clear();
    headPrefixes.set(key, prefix);
  }
  return [...prefix, 'content-length', String(bodyBytes)];
}

/** POSTs `body` (JSON) to `path` under `baseURL` as the SDK would; resolves with the answer, any status. */
export async function postJson(baseURL: string, path: string, apiKey: string, body: unknown, signal: AbortSignal): Promise<OpenAiHttpAnswer> {
  const url = urlFor(baseURL, path);
  const payload = Buffer.from(JSON.stringify(body), 'utf8');
  const { agent, request: send } = await transportFor(url);
  if (signal.aborted) throw abortError(signal);
  return new Promise<OpenAiHttpAnswer>((resolve, reject) => {
    // The headers as one flat list (`rawHeaders` form): written as given, in order, without a setHeader
    // call (and its validation and bookkeeping) per header on every request.
    const req = send(url, { method: 'POST', agent, setHost: false, headers: flatHeaders(url, apiKey, payload.length) });
    const onAbort = () => req.destroy(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    const done = () => signal.removeEventListener('abort', onAbort);
    req.on('error', (err) => {
      done();
      reject(signal.aborted ? abortError(signal) : new OpenAiConnectionError('Connection error.', { cause: err }));
    });
    req.on('response', (res) => {
      readBody(res).then(
        (text) => {
          done();
          try {
            resolve(answer(res, text));
          } catch (err) {
            reject(err);
          }
        },
        (err: Error) => {
          done();
          reject(signal.aborted ? abortError(signal) : err);
        },
      );
    });
    req.end(payload);
  });
}

function abortError(signal: AbortSignal): Error {
  const err = new Error(`request aborted${signal.reason instanceof Error ? `: ${signal.reason.message}` : ''}`, { cause: signal.reason });
  err.name = 'AbortError';
  return err;
}

/** The body as text, decoded as `fetch` decodes it (gzip, deflate, br). */
function readBody(res: IncomingMessage): Promise<string> {
  const encoding = String(res.headers['content-encoding'] ?? '').trim().toLowerCase();
  const decoder = encoding === 'gzip' || encoding === 'x-gzip' ? createGunzip() : encoding === 'deflate' ? createInflate() : encoding === 'br' ? createBrotliDecompress() : null;
  const stream = decoder ? res.pipe(decoder) : res;
  if (decoder) res.on('error', (err) => decoder.destroy(err));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    // As fetch decodes UTF-8: a leading byte order mark is not part of the text.
    stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8').replace(/^\uFEFF/, '')));
    stream.on('error', reject);
  });
}

/** What the SDK makes of an answer: JSON parsed for a JSON media type, text otherwise, null for 204. */
function answer(res: IncomingMessage, text: string): OpenAiHttpAnswer {
  const status = res.statusCode ?? 0;
  const headers = { get: (name: string) => { const v = res.headers[name.toLowerCase()]; return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v; } };
  if (status < 200 || status >= 300) return { status, body: text, headers };
  if (status === 204) return { status, body: null, headers };
  const mediaType = headers.get('content-type')?.split(';')[0]?.trim();
  const isJson = mediaType?.includes('application/json') || mediaType?.endsWith('+json');
  if (!isJson) return { status, body: text, headers };
  if (headers.get('content-length') === '0') return { status, body: undefined, headers };
  // Parse errors surface as the SDK's do (a SyntaxError from JSON.parse), mapped by the caller.
  return { status, body: JSON.parse(text) as unknown, headers };
}
