import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { Http1Answer } from './http1-pool.js';
import { MAX_BODY_BYTES } from './http1-reply.js';

/**
 * An answer's body as text, decoded as `fetch` decodes it (gzip, deflate, br; a leading byte order mark
 * dropped): what the SDKs read through `fetch`, for the light request paths (openai-http.ts, mistral-http.ts).
 */
export function answerText(reply: Http1Answer): string {
  const encoding = (reply.headers.get('content-encoding') ?? '').trim().toLowerCase();
  const raw = reply.body;
  // Decoded no larger than a body is kept (a small compressed answer may expand without end): RangeError past it.
  const bound = { maxOutputLength: MAX_BODY_BYTES };
  const bytes = encoding === 'gzip' || encoding === 'x-gzip' ? gunzipSync(raw, bound) : encoding === 'deflate' ? inflateSync(raw, bound) : encoding === 'br' ? brotliDecompressSync(raw, bound) : raw;
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
