import type { ChatMessage } from './types.js';
import { messagesJson } from './messages-json.js';

/**
 * The JSON body the Mistral SDK's `chatComplete` sends for a request (its `ChatCompletionRequest` outbound
 * schema, zod, then `JSON.stringify`), written directly: the SDK's field names (snake_case), in its
 * schema's order, `stream: false` where it adds it, `prefix: false` on assistant messages, fields it does
 * not know dropped. Only for the requests this module can write exactly (`null` otherwise: the SDK sends
 * them, and refuses what it refuses): plain values in the fields a chat seat uses, messages of a role and
 * a string content. test/llm/mistral-http.test.ts compares the bytes with the SDK's for each field.
 */

/** How the schema checks a field the light path writes: its zod type, as a predicate. */
type Check = (v: unknown) => boolean;
const num: Check = (v) => typeof v === 'number' && Number.isFinite(v);
const int: Check = (v) => Number.isSafeInteger(v);
const bool: Check = (v) => typeof v === 'boolean';
const str: Check = (v) => typeof v === 'string';
const nullable = (check: Check): Check => (v) => v === null || check(v);
const stop: Check = nullable((v) => str(v) || (Array.isArray(v) && v.every(str)));

/**
 * The request's fields in the schema's order: the SDK's (camelCase) name, the name it sends, and, for a
 * field written here, its check. `null`: a field the SDK knows that only it writes (tools, metadata…).
 */
const FIELDS: ReadonlyArray<readonly [string, string, Check | null]> = [
  ['model', 'model', str],
  ['temperature', 'temperature', nullable(num)],
  ['topP', 'top_p', nullable(num)],
  ['maxTokens', 'max_tokens', nullable(int)],
  ['stream', 'stream', (v) => v === false],
  ['stop', 'stop', stop],
  ['randomSeed', 'random_seed', nullable(int)],
  ['metadata', 'metadata', null],
  ['messages', 'messages', null],
  ['responseFormat', 'response_format', null],
  ['tools', 'tools', null],
  ['toolChoice', 'tool_choice', null],
  ['presencePenalty', 'presence_penalty', nullable(num)],
  ['frequencyPenalty', 'frequency_penalty', nullable(num)],
  ['n', 'n', nullable(int)],
  ['prediction', 'prediction', null],
  ['parallelToolCalls', 'parallel_tool_calls', bool],
  ['reasoningEffort', 'reasoning_effort', null],
  ['promptMode', 'prompt_mode', null],
  ['guardrails', 'guardrails', null],
  ['promptCacheKey', 'prompt_cache_key', nullable(str)],
  ['serviceTier', 'service_tier', null],
  ['safePrompt', 'safe_prompt', bool],
];
const KNOWN = new Set(FIELDS.map(([name]) => name));

/** The body's JSON as the SDK sends it, or null when only the SDK can write it (or would refuse it). */
export function mistralBodyJson(body: Record<string, unknown>): string | null {
  for (const key of Object.keys(body)) {
    // Fields the SDK does not know it drops (zod strips them); `undefined` it leaves out.
    if (!KNOWN.has(key) || body[key] === undefined) continue;
    if (key !== 'messages' && key !== 'responseFormat' && !FIELDS.find(([name]) => name === key)![2]) return null;
  }
  let out = '{';
  for (const [name, sent, check] of FIELDS) {
    let value = body[name];
    if (name === 'stream' && value === undefined) value = false;
    if (value === undefined) continue;
    let json: string | null;
    if (name === 'messages') json = messagesBody(value);
    else if (name === 'responseFormat') json = responseFormatJson(value);
    else json = check!(value) ? JSON.stringify(value) : null;
    if (json === null) return null;
    out += `${out.length > 1 ? ',' : ''}"${sent}":${json}`;
  }
  return `${out}}`;
}

/** A message the SDK writes as `{"role","content"}` (plus `"prefix":false` for the assistant's). */
function plainMessage(m: unknown): m is ChatMessage {
  if (typeof m !== 'object' || m === null || Object.getPrototypeOf(m) !== Object.prototype) return false;
  const keys = Object.keys(m);
  const { role, content } = m as Record<string, unknown>;
  return keys.length === 2 && keys[0] === 'role' && keys[1] === 'content' && typeof content === 'string' && (role === 'system' || role === 'user' || role === 'assistant');
}

/**
 * The messages as the SDK writes them. Without an assistant's message that is `JSON.stringify(messages)`,
 * made once for the body and the cassette's line (messages-json.ts).
 */
function messagesBody(value: unknown): string | null {
  if (!Array.isArray(value) || !value.every(plainMessage)) return null;
  const messages = value as ChatMessage[];
  if (!messages.some((m) => m.role === 'assistant')) return messagesJson(messages);
  return `[${messages.map((m) => (m.role === 'assistant' ? `{"role":"assistant","content":${JSON.stringify(m.content)},"prefix":false}` : JSON.stringify(m))).join(',')}]`;
}

/** `response_format` as the SDK writes it: `{type}` or `{type, json_schema: {name, schema, strict}}`. */
function responseFormatJson(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return null;
  const { type, jsonSchema, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0 || !(type === 'text' || type === 'json_object' || type === 'json_schema')) return null;
  if (jsonSchema === undefined) return `{"type":${JSON.stringify(type)}}`;
  if (typeof jsonSchema !== 'object' || jsonSchema === null) return null;
  const { name, schemaDefinition, strict, ...other } = jsonSchema as Record<string, unknown>;
  const plainSchema = typeof schemaDefinition === 'object' && schemaDefinition !== null && Object.getPrototypeOf(schemaDefinition) === Object.prototype;
  if (Object.keys(other).length > 0 || typeof name !== 'string' || !plainSchema || (strict !== undefined && typeof strict !== 'boolean')) return null;
  const strictJson = strict === undefined ? '' : `,"strict":${strict}`;
  return `{"type":${JSON.stringify(type)},"json_schema":{"name":${JSON.stringify(name)},"schema":${JSON.stringify(schemaDefinition)}${strictJson}}}`;
}
