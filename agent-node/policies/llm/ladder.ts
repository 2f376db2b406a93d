import { ErrorCode, type FailureInfo, type Usage } from '../../../protocol/index.js';
import { isLlmError, type ChatMessage, type ChatRequest, type LlmClient } from '../../../llm/index.js';
import type { Parsed } from './parse-action.js';

/** What a move's LLM calls cost, summed: the numbers that go into `TurnMeta`. */
export interface Tally {
  usage: Usage;
  retries: number;
  lenient: number;
  reformat: number;
  calls: number;
  /** Structured-output fallbacks of the LLM layer's ladder (server rejected `response_format`). */
  fallbacks: { rejected: number; jsonMode: number; prompt: number };
}

export const newTally = (): Tally => ({ usage: { prompt: 0, completion: 0, cached: 0 }, retries: 0, lenient: 0, reformat: 0, calls: 0, fallbacks: { rejected: 0, jsonMode: 0, prompt: 0 } });

/**
 * The code of an unreadable reply after the whole ladder (DESIGN invariant 5: never a silent `none`; the
 * orchestrator's `--on-unparsable none` records a `none` that keeps this failure).
 */
export const UNPARSABLE = ErrorCode.PolicyUnparsable;

export type LadderResult<T> = { ok: true; value: T } | { ok: false; error: FailureInfo };

/**
 * Where the one reformat request goes and what it says, when not Parley's way (the same model, the
 * conversation continued with its reply and the problem). Under `--protocol paper`, SOTOPIA's way: a
 * fresh request holding only the unreadable text and the format, sent to the reformat model.
 */
export interface ReformatRoute {
  client: LlmClient;
  request: (unreadable: string, problem: string) => ChatRequest;
}

function failure(err: unknown): FailureInfo {
  if (isLlmError(err)) return { code: err.code, message: err.message.slice(0, 1000) };
  return { code: ErrorCode.PolicyFailed, message: `unexpected error: ${(err as Error)?.message ?? String(err)}`.slice(0, 1000) };
}

const snippet = (s: string) => JSON.stringify(s.length > 200 ? `${s.slice(0, 200)}…` : s);

/**
 * The output repair ladder: ask, read strictly, else leniently (counted); still unreadable → ONE
 * reformat request that shows the model its reply and the problem (counted); still unreadable →
 * an explicit `policy/unparsable` failure. A failed LLM call ends the ladder with its own `llm/*` code.
 * `route` sends the reformat request elsewhere, in another shape (see `ReformatRoute`).
 */
export async function askWithRepair<T>(
  client: LlmClient,
  request: ChatRequest,
  parse: (content: string) => Parsed<T>,
  reformatMessages: (problem: string) => ChatMessage[],
  tally: Tally,
  signal?: AbortSignal,
  route?: ReformatRoute,
): Promise<LadderResult<T>> {
  const call = async (req: ChatRequest, via: LlmClient = client) => {
    tally.calls++;
    try {
      const res = await via.chat(req, signal);
      tally.usage.prompt += res.usage.prompt;
      tally.usage.completion += res.usage.completion;
      tally.usage.cached += res.usage.cached ?? 0;
      tally.retries += res.retries;
      if (res.structured) {
        tally.fallbacks.rejected += res.structured.rejected;
        if (res.structured.fallback && res.structured.mode === 'json_object') tally.fallbacks.jsonMode++;
        if (res.structured.fallback && res.structured.mode === 'prompt') tally.fallbacks.prompt++;
      }
      return { ok: true as const, content: res.content, truncated: res.finishReason === 'length' };
    } catch (err) {
      if (isLlmError(err)) tally.retries += err.retries;
      return { ok: false as const, error: failure(err) };
    }
  };

  const first = await call(request);
  if (!first.ok) return first;
  const parsed = parse(first.content);
  if (parsed.ok) {
    if (parsed.lenient) tally.lenient++;
    return { ok: true, value: parsed.value };
  }

  const problem = first.truncated ? `${parsed.reason} (the reply was cut off at the token limit; keep it shorter)` : parsed.reason;
  tally.reformat++;
  const retry = route
    ? await call(route.request(first.content, problem), route.client)
    : await call({
      ...request,
      messages: [...request.messages, { role: 'assistant', content: first.content }, ...reformatMessages(problem)],
    });
  if (!retry.ok) return retry;
  const reparsed = parse(retry.content);
  if (reparsed.ok) {
    if (reparsed.lenient) tally.lenient++;
    return { ok: true, value: reparsed.value };
  }
  return {
    ok: false,
    error: {
      code: UNPARSABLE,
      message: `unreadable reply after one reformat request: ${reparsed.reason}; first reply ${snippet(first.content)}, second reply ${snippet(retry.content)}`,
    },
  };
}
