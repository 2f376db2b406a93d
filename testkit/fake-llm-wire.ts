import type { ServerResponse } from 'node:http';
import type { FakeReply } from './fake-llm-server.js';
import type { ChatBody } from './fake-llm-plausible.js';
import { sharedPrefix } from './shared-prefix.js';

/**
 * The fake LLM server's wire format (fake-llm-server.ts): the chat completion and its streamed chunks as both
 * official SDKs validate them, JSON answers, and usage with a simulated prompt cache.
 */

const tokens = (s: string) => Math.max(1, Math.ceil(s.length / 4));

type ContentUsage = Extract<FakeReply, { kind: 'content' }>['usage'];
export type Usage = ReturnType<ReturnType<typeof promptCache>>;
type Body = ChatBody & Record<string, unknown>;

const promptJsons = new WeakMap<object, string>();

/**
 * A request's messages as JSON (what the simulated prompt cache compares, and what a reply function may
 * count tokens on: paper-scale's does), made once per request: ~5 KB a paper prompt, twice a request.
 */
export function promptJson(body: ChatBody): string {
  const messages = body.messages;
  if (!messages) return '[]';
  let json = promptJsons.get(messages);
  if (json === undefined) {
    json = JSON.stringify(messages);
    promptJsons.set(messages, json);
  }
  return json;
}

/** Usage with simulated prompt caching: tokens of the longest prefix shared with one of the last 32 prompts. */
export function promptCache() {
  const recentPrompts: string[] = [];
  return (body: ChatBody, content: string, override: ContentUsage = {}) => {
    const prompt = promptJson(body);
    let prefix = 0;
    for (const p of recentPrompts) prefix = Math.max(prefix, sharedPrefix(p, prompt));
    recentPrompts.push(prompt);
    if (recentPrompts.length > 32) recentPrompts.shift();
    const promptTokens = override.prompt ?? tokens(prompt);
    const completionTokens = override.completion ?? tokens(content);
    const cached = Math.min(promptTokens, override.cached ?? (prefix >= 256 ? Math.floor(prefix / 4) : 0));
    return {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      prompt_tokens_details: { cached_tokens: cached, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    };
  };
}

export function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

export function completion(n: number, body: ChatBody, content: string, finishReason: string, usage: Usage) {
  return {
    id: `chatcmpl-fake-${n}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: body.model ?? 'fake-model',
    system_fingerprint: 'fp_fake',
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: finishReason }],
    usage,
  };
}

/** SSE stream: a role chunk, the content in pieces, a finish chunk with usage, an OpenAI usage chunk if asked, [DONE]. */
export function sendStream(res: ServerResponse, n: number, body: Body, content: string, finishReason: string, usage: Usage) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const base = { id: `chatcmpl-fake-${n}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: body.model ?? 'fake-model' };
  const send = (chunk: unknown) => res.write(`data: ${JSON.stringify(chunk)}\n\n`);
  send({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
  const size = Math.max(1, Math.ceil(content.length / 3));
  for (let i = 0; i < content.length; i += size) {
    send({ ...base, choices: [{ index: 0, delta: { content: content.slice(i, i + size) }, finish_reason: null }] });
  }
  send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: finishReason }], usage });
  const opts = body.stream_options as { include_usage?: boolean } | undefined;
  if (opts?.include_usage) send({ ...base, choices: [], usage });
  res.write('data: [DONE]\n\n');
  res.end();
}

