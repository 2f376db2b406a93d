import { LlmError, LlmErrorCode } from './errors.js';
import { lenientJson, strictJson } from './lenient-json.js';
import type { StructuredMode } from './options.js';
import type { ChatMessage, ChatRequest, StructuredFallback } from './types.js';

/**
 * The structured-output ladder. A request that wants JSON (`ChatRequest.json`) is sent with the
 * strongest `response_format` the server is known to take: a JSON schema, else JSON mode, else none at
 * all, with the schema written into the prompt and the reply parsed leniently (the way SOTOPIA's
 * format instructions ask for JSON). A server that rejects a format (400/422 naming it) gets the same
 * request one rung down, at once, and the rung is remembered for that model for the rest of the
 * process: a call that starts after it is learned pays nothing for the discovery. Calls that start
 * together do not wait for the first one's verdict (below).
 */
const RUNGS: readonly StructuredMode[] = ['json_schema', 'json_object', 'prompt'];

/** Rung reached per (provider, endpoint, model), shared by every client of this process. */
const learned = new Map<string, StructuredMode>();

/** Forgets what was learned (tests). */
export function resetStructuredMemory(): void {
  learned.clear();
}

/** Whether an error says the server does not accept this `response_format`. */
export function rejectsFormat(err: unknown): boolean {
  return (
    err instanceof LlmError &&
    err.code === LlmErrorCode.HttpError &&
    (err.status === 400 || err.status === 422) &&
    /response_format|response format|json_schema|json_object|json mode|schema|structured/i.test(err.message)
  );
}

/** The request as sent on the `prompt` rung: the schema and the answer format appended to the conversation. */
export function withSchemaInPrompt(req: ChatRequest): ChatRequest {
  if (!req.json) return req;
  const instruction: ChatMessage = {
    role: 'user',
    content:
      `Format of your answer: a single JSON object and nothing else (no prose, no code fence), ` +
      `valid against this JSON schema named "${req.json.name}":\n${JSON.stringify(req.json.schema)}`,
  };
  return { ...req, messages: [...req.messages, instruction] };
}

/** On the `prompt` rung: the JSON object inside a decorated reply, re-serialised; the raw text if none. */
export function leniently(content: string): string {
  if (strictJson(content).ok) return content;
  const found = lenientJson(content);
  return found.ok ? JSON.stringify(found.value) : content;
}

/** One provider request in a given mode; the result says nothing about fallbacks (the ladder adds that). */
export type SendInMode<R> = (req: ChatRequest, signal: AbortSignal, mode: StructuredMode) => Promise<R & { content: string }>;

/**
 * Wraps a provider's send in the ladder. `initial` is the configured top rung (`off` = never send a
 * format and never add the schema: the caller's prompt already asks for JSON its own way).
 */
export function structuredLadder<R>(
  key: string,
  initial: StructuredMode,
  send: SendInMode<R>,
): (req: ChatRequest, signal: AbortSignal) => Promise<R & { content: string; structured?: StructuredFallback }> {
  const climb = async (req: ChatRequest, signal: AbortSignal) => {
    const start = RUNGS.indexOf(initial);
    let rung = Math.max(start, RUNGS.indexOf(learned.get(key) ?? initial));
    let rejected = 0;
    for (;;) {
      const mode = RUNGS[rung]!;
      try {
        const res = mode === 'prompt' ? await send(withSchemaInPrompt(req), signal, 'off') : await send(req, signal, mode);
        learned.set(key, mode);
        const content = mode === 'prompt' ? leniently(res.content) : res.content;
        if (rung === start && rejected === 0) return { ...res, content };
        return { ...res, content, structured: { mode, rejected, fallback: rung > start } };
      } catch (err) {
        if (mode === 'prompt' || !rejectsFormat(err)) throw err;
        rejected += 1;
        rung += 1;
        learned.set(key, RUNGS[rung]!);
      }
    }
  };
  // Calls that start before any rung has answered for this model climb each on their own. They used to
  // wait for the first one's verdict, which comes only with its answer: a whole model call. In a
  // multiplexed agent process the ten seats make their first move together, and nine of them waited
  // ~200 ms in the bench (bench/start-up.md, `ramp10`), seconds on a real model. Against a server that
  // rejects the format, each such call now gets its own quick 400 and steps down (each counted).
  return async (req, signal) => {
    if (!req.json || initial === 'off') return send(req, signal, 'off');
    return climb(req, signal);
  };
}
