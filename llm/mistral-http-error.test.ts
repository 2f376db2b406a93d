import { describe, expect, it } from 'vitest';
import { SDKError } from '@mistralai/mistralai/models/errors';
import { MistralStatusError, statusFailure } from './mistral-http-error.js';
import type { MistralAnswer } from './mistral-http.js';

const answer = (status: number, text: string, headers: Record<string, string> = { 'content-type': 'application/json' }): MistralAnswer => {
  const all = new Map(Object.entries(headers));
  return { status, headers: { get: (n) => all.get(n) ?? null }, text, all };
};

/**
 * The SDK's own error for the same answer (what its `fail('4XX' | '5XX')` matcher returns on fetch's Response;
 * the body is given apart, so the Response has none: one made from a string would gain a text/plain type).
 */
function sdkError(a: MistralAnswer): SDKError {
  const response = new Response(null, { status: a.status, headers: [...a.all] });
  return new SDKError('API error occurred', { response, request: new Request('http://h/v1/chat/completions', { method: 'POST' }), body: a.text });
}

describe("statusFailure: a 4XX or 5XX answer's error without the SDK", () => {
  it.each<[string, MistralAnswer]>([
    ['an empty JSON body', answer(500, '')],
    ['an empty body, no content type', answer(503, '', {})],
    ['a content type with a space', answer(404, '', { 'content-type': 'text/html; charset=utf-8' })],
    ['a content type padded with spaces', answer(404, 'gone', { 'content-type': '  text/plain ' })],
    ['a short body', answer(400, '{"message":"bad"}')],
    ['a body over 100 characters', answer(429, 'y'.repeat(150), { 'content-type': 'text/plain' })],
    ['a body over 10,000 characters', answer(502, 'z'.repeat(10_050))],
  ])('%s: the message of the SDK\'s SDKError', (_what, a) => {
    const ours = new MistralStatusError(a);
    const theirs = sdkError(a);
    expect(ours.message).toBe(theirs.message);
    expect(ours.statusCode).toBe(theirs.statusCode);
    expect(ours.body).toBe(theirs.body);
  });

  it('gives the status, the Retry-After and the body (or the message) as the LlmError', () => {
    const limited = statusFailure(answer(429, '{"message":"slow"}', { 'content-type': 'application/json', 'retry-after': '3' }), 'mistral:m');
    expect(limited).toMatchObject({ code: 'llm/rate_limited', status: 429, retryAfterMs: 3000, message: 'mistral:m: HTTP 429: {"message":"slow"}' });
    expect(statusFailure(answer(503, ''), 'mistral:m')?.message).toBe('mistral:m: HTTP 503: API error occurred: Status 503. Body: ""');
    // A 4XX other than 429 carries no Retry-After (the retry policy does not wait on it).
    expect(statusFailure(answer(400, 'x', { 'retry-after': '3' }), 'mistral:m')?.retryAfterMs).toBeUndefined();
  });

  it('leaves a 2XX, a 3XX and a 422 to the SDK', () => {
    for (const status of [200, 201, 302, 422]) expect(statusFailure(answer(status, '{}'), 'mistral:m')).toBeNull();
  });
});
