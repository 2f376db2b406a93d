import { parseRetryAfter } from './retry.js';
import { httpError } from './sdk-client.js';
import type { LlmError } from './errors.js';
import type { MistralAnswer } from './mistral-http.js';

/**
 * The error of a 4XX or 5XX answer (but a 422: its JSON is the SDK's `HTTPValidationError`, left to the SDK)
 * without loading the Mistral SDK. The SDK's `chatComplete` matches such an answer with `fail('4XX' | '5XX')`
 * and returns its `SDKError("API error occurred", …)`; llm/mistral-client.ts's `mapMistralError` turns that
 * into `httpError(label, status, body || message, Retry-After)`. Made here from the same answer, the same
 * `LlmError` (code, message, status, Retry-After) comes back, and the first error of a process no longer
 * loads the SDK's matchers, schemas and error classes before its retry waits (11-18 s at load ~100).
 * test/llm/mistral-http.test.ts checks the two paths give equal errors.
 */
export function statusFailure(answer: MistralAnswer, label: string): LlmError | null {
  const { status } = answer;
  if (status < 400 || status > 599 || status === 422) return null;
  const cause = new MistralStatusError(answer);
  return httpError(label, status, cause.body || cause.message, parseRetryAfter(answer.headers), cause);
}

/** The SDK's `SDKError` of a failed answer as data: its message, status, body and headers (the `LlmError`'s cause). */
export class MistralStatusError extends Error {
  override readonly name = 'MistralStatusError';
  readonly statusCode: number;
  readonly body: string;
  readonly headers: MistralAnswer['headers'];

  constructor(answer: MistralAnswer) {
    super(sdkErrorMessage(answer.status, contentTypeOf(answer), answer.text));
    this.statusCode = answer.status;
    this.body = answer.text;
    this.headers = answer.headers;
  }
}

/** The content type as `Headers.get` gives it to the SDK (its value trimmed of HTTP whitespace). */
const contentTypeOf = (answer: MistralAnswer): string | null => answer.headers.get('content-type')?.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '') ?? null;

/** The SDK's `SDKError` message (its models/errors/sdkerror.ts), for the message "API error occurred". */
export function sdkErrorMessage(status: number, type: string | null, text: string): string {
  let message = `API error occurred: Status ${status}`;
  const contentType = type || '""';
  if (contentType !== 'application/json') message += ` Content-Type ${contentType.includes(' ') ? `"${contentType}"` : contentType}`;
  const body = text || '""';
  message += body.length > 100 ? '\n' : '. ';
  message += `Body: ${body.length > 10000 ? `${body.substring(0, 10000)}...and ${body.length - 10000} more chars` : body}`;
  return message.trim();
}
