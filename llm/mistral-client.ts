import { withCallSignal } from './attempt-signal.js';
import { LlmError, LlmErrorCode } from './errors.js';
import type { ClientOptions, StructuredMode } from './options.js';
import { loadMistralChat, type MistralChat, type MistralClientOptions } from './mistral-sdk.js';
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
}

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

  const send = async (req: ChatRequest, signal: AbortSignal, structured: StructuredMode): Promise<AttemptResult> => {
    const body: Record<string, unknown> = {
      ...toMistralSampling(samplingFor(settings.sampling, req)),
      model: settings.model,
      messages: req.messages,
    };
    const format = responseFormat(req, structured);
    if (format) body.responseFormat = format;
    const requestOptions = { signal, retries: { strategy: 'none' as const } };
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
      const res = unwrap(await withCallSignal(signal, async () => sdk.complete(body as never, requestOptions)));
      const choice = res.choices[0];
      const raw = choice?.message?.content;
      if (raw === undefined || raw === null) throw new LlmError(LlmErrorCode.BadResponse, `${label}: reply has no message content`);
      const result: AttemptResult = { content: textOf(raw), usage: usageFrom(res.usage), model: res.model || settings.model };
      if (choice?.finishReason) result.finishReason = String(choice.finishReason);
      return result;
    } catch (err) {
      throw mapMistralError(err, label, await loadErrors());
    }
  };
  // A server that rejects a response_format gets the next rung down, remembered for this model.
  const attempt = structuredLadder(`mistral ${settings.serverURL ?? 'default'} ${settings.model}`, settings.options.structuredOutput, send);
  return new SdkClient('mistral', settings.model, attempt, settings.options, settings.serverURL ?? 'default', deps, sdkClient, settings.apiKey);
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
