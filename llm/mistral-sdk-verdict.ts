import type { MistralAnswer } from './mistral-http.js';

/**
 * What the Mistral SDK's `chatComplete` makes of an answer the light path (mistral-http.ts) does not read
 * itself (an error status, another content type, a body outside the plain shape): the very matchers the
 * SDK runs on its `fetch` answer, on a `Response` holding the same status, headers and text, so that the
 * value, or the error (`MistralError`, `HTTPValidationError`, `ResponseValidationError`…) and its message,
 * are the SDK's. Loaded only for such answers.
 */
export async function sdkVerdict(answer: MistralAnswer, url: URL): Promise<{ ok: true; value: unknown } | { ok: false; error: unknown }> {
  const [M, response, errors] = await Promise.all([
    import('@mistralai/mistralai/lib/matchers.js'),
    import('@mistralai/mistralai/models/components/chatcompletionresponse.js'),
    import('@mistralai/mistralai/models/errors/httpvalidationerror.js'),
  ]);
  const headers = new Headers();
  // The body is decoded already: its encoding and length no longer describe it.
  for (const [name, value] of answer.all) if (name !== 'content-encoding' && name !== 'content-length') headers.set(name, value);
  const nullBody = answer.status === 204 || answer.status === 205 || answer.status === 304;
  const res = new Response(nullBody ? null : answer.text, { status: answer.status, headers });
  // A Response made from a string gains `text/plain;charset=UTF-8`; fetch's has no type when the server sent none.
  if (!answer.all.has('content-type')) res.headers.delete('content-type');
  const req = new Request(url, { method: 'POST' });
  const [result] = await M.match(
    M.json(200, response.ChatCompletionResponse$inboundSchema),
    M.jsonErr(422, errors.HTTPValidationError$inboundSchema),
    M.fail('4XX'),
    M.fail('5XX'),
  )(res, req, { extraFields: { HttpMeta: { Response: res, Request: req } } });
  return result as { ok: true; value: unknown } | { ok: false; error: unknown };
}
