/**
 * The fake LLM server's default answers: valid Parley JSON for agent and script-writer prompts, so whole
 * runs complete against it. Deterministic (same request → same answer) so replays can be compared.
 */

import { fillSchema, plausibleScenario } from './fake-llm-schema-reply.js';

/** The subset of a chat-completions body the plausible replies look at. */
export interface ChatBody {
  model?: string;
  messages?: Array<{ role?: string; content?: unknown }>;
  response_format?: { type?: string; json_schema?: { name?: string; schema?: Record<string, unknown> } };
  /** Mistral SDK spelling (camelCase is converted to snake_case on the wire, but be liberal). */
  responseFormat?: unknown;
}

/**
 * The prompt's text, joined once per messages array: answering one request asks for it up to six times
 * (the schema, the answer shape, script or move, the turn). Keyed on the array a request's parsed body holds.
 */
const joined = new WeakMap<object, string>();
const text = (body: ChatBody): string => {
  const messages = body.messages ?? [];
  let all = joined.get(messages);
  if (all === undefined) {
    all = messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? ''))).join('\n');
    joined.set(messages, all);
  }
  return all;
};

/** Whether the request asks for a whole script rather than one move. */
export function isScriptRequest(body: ChatBody): boolean {
  const name = body.response_format?.json_schema?.name;
  if (name) return /script/i.test(name);
  return /"turns"\s*:/.test(text(body));
}

/** Enum of a property inside a JSON schema, following `properties`/`items` along `path`. */
function schemaEnum(schema: unknown, path: string[]): string[] | undefined {
  let node = schema as Record<string, unknown> | undefined;
  for (const key of path) {
    if (!node) return undefined;
    node = key === '[]' ? (node.items as Record<string, unknown>) : ((node.properties as Record<string, unknown>)?.[key] as Record<string, unknown>);
  }
  const e = node?.enum;
  return Array.isArray(e) ? e.map(String) : undefined;
}

/** Quoted values after a marker such as `must be one of:` on one line. */
function listAfter(all: string, marker: RegExp): string[] | undefined {
  const line = all.split('\n').reverse().find((l) => marker.test(l));
  if (!line) return undefined;
  const m = marker.exec(line)!;
  const values = [...line.slice(m.index + m[0].length).matchAll(/"([^"]+)"/g)].map((v) => v[1]!);
  return values.length ? values : undefined;
}

/**
 * A plausible move: speak for four turns, then leave (or keep speaking if leaving is not allowed).
 * `leaveFrom` moves the turn a seat leaves at (shorter episodes where their length is not what is tested).
 */
export function plausibleAction(body: ChatBody, leaveFrom = 4): string {
  const all = text(body);
  const game = plausibleGameMove(all);
  if (game) return game;
  const turns = [...all.matchAll(/Turn #(\d+)/g)].map((m) => Number(m[1]));
  const turn = turns.length ? Math.max(...turns) : 0;
  const allowed =
    schemaEnum(body.response_format?.json_schema?.schema, ['action_type']) ??
    listAfter(all, /action_type.*one of:/i) ??
    ['speak', 'leave'];
  if (turn >= leaveFrom && allowed.includes('leave')) return JSON.stringify({ action_type: 'leave', argument: '' });
  const type = allowed.includes('speak') ? 'speak' : allowed[0]!;
  return JSON.stringify({ action_type: type, argument: `Nice to talk with you, this is what I say at turn ${turn}.` });
}

/**
 * A game prompt's move (agent-node/prompts/game.md asks `write "vote <player>" ... naming one of: "a", "b"`):
 * one of the named players, chosen by a hash of the prompt, so a run of fake games reaches its ends and
 * the same request gets the same move.
 */
function plausibleGameMove(all: string): string | null {
  const asked = /write "([a-z_]+) <player>" as an "action", naming one of: (.+)$/m.exec(all);
  if (!asked) return null;
  const targets = [...asked[2]!.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
  if (!targets.length) return null;
  let h = 0x811c9dc5;
  for (let i = 0; i < all.length; i++) h = Math.imul(h ^ all.charCodeAt(i), 0x01000193) >>> 0;
  return JSON.stringify({ action_type: 'action', argument: `${asked[1]} ${targets[h % targets.length]}` });
}

/** A plausible script: four alternating spoken lines over the seats the prompt names. */
export function plausibleScript(body: ChatBody): string {
  const all = text(body);
  const seats =
    schemaEnum(body.response_format?.json_schema?.schema, ['turns', '[]', 'seat']) ??
    listAfter(all, /"seat".*one of:/i) ??
    ['A', 'B'];
  const max = /at most (\d+) turns/i.exec(all);
  const n = Math.min(4, max ? Number(max[1]) : 4);
  const turns = Array.from({ length: n }, (_, i) => ({
    seat: seats[i % seats.length]!,
    action_type: 'speak',
    argument: `Line ${i + 1} of the script, spoken by ${seats[i % seats.length]}.`,
  }));
  return JSON.stringify({ turns });
}

/**
 * Whether the request asks for the paper's free-text script (`--protocol paper`): no JSON format asked,
 * participants named in a `Participants: A and B` line, and turns to be written as `Turn #x` lines.
 */
export function isTextScriptRequest(body: ChatBody): boolean {
  if (body.response_format) return false;
  const all = text(body);
  return /^Participants: .+ and .+$/m.test(all) && /Turn #x/.test(all);
}

/** A plausible free-text script: four spoken turns going round the participants, then the first participant leaves. */
export function plausibleTextScript(body: ChatBody): string {
  // `Participants: A and B`, or for a group `Participants: A, B and C`.
  const line = /^Participants: (.+) and (.+)$/m.exec(text(body));
  const names = line ? [...line[1]!.split(', ').map((n) => n.trim()), line[2]!.trim()] : ['A', 'B'];
  const turns = Array.from({ length: 4 }, (_, i) => `Turn #${i}\n${names[i % names.length]} said: "Line ${i + 1} of the script, spoken by ${names[i % names.length]}."`);
  return [...turns, `Turn #4\n${names[0]} left the conversation`].join('\n');
}

/** The plausible answer to any Parley prompt: a move, a script, a generated scenario, or a schema value (judge). */
export function plausibleReply(body: ChatBody, leaveFrom?: number): string {
  // A request on the prompt-only rung carries its schema in the prompt: answer it as if it had been a response_format.
  if (!body.response_format?.json_schema) {
    const inPrompt = schemaInPrompt(body);
    if (inPrompt) body = { ...body, response_format: { type: 'json_schema', json_schema: inPrompt } };
  }
  const format = body.response_format?.json_schema;
  // The paper's deal question (appendix H.2) asks for tags, not JSON.
  if (!format && /<answer>yes or no<\/answer>/.test(text(body))) return '<reasoning>A plausible reading of the conversation.</reasoning>\n<answer>no</answer>';
  // The paper's naturalness question asks its answer shape in words, with no schema (appendix E).
  if (!format && /"more_natural"/.test(text(body))) return JSON.stringify({ reasoning: 'A plausible comparison.', more_natural: '1' });
  if (format?.name === 'parley_scenario') return plausibleScenario();
  if (format?.name && !/^parley_(action|script)$/.test(format.name)) return JSON.stringify(fillSchema(format.schema));
  if (isTextScriptRequest(body)) return plausibleTextScript(body);
  return isScriptRequest(body) ? plausibleScript(body) : plausibleAction(body, leaveFrom);
}

/**
 * JSON mode (Mistral's judge): the schema follows "… valid against this schema):" with no name; named
 * here after what it asks for, so a move or a script is still answered as one.
 */
function unnamedSchemaInPrompt(last: string): [string, string, string] | null {
  const m = /valid against this schema\):\n(\{[\s\S]*\})\s*$/.exec(last);
  if (!m) return null;
  const name = /^\{"type":"object","properties":\{"action_type"/.test(m[1]!) ? 'parley_action' : /^\{"type":"object","properties":\{"turns"/.test(m[1]!) ? 'parley_script' : 'prompt_schema';
  return [m[0], name, m[1]!];
}

/** The schema a prompt-only JSON request wrote into its last message (`… JSON schema named "X":\n{…}`). */
export function schemaInPrompt(body: ChatBody): { name: string; schema: Record<string, unknown> } | undefined {
  const last = body.messages?.at(-1)?.content;
  if (typeof last !== 'string') return undefined;
  const m = /JSON schema named "([^"]+)":\n(\{[\s\S]*\})\s*$/.exec(last) ?? unnamedSchemaInPrompt(last);
  if (!m) return undefined;
  try {
    return { name: m[1]!, schema: JSON.parse(m[2]!) as Record<string, unknown> };
  } catch {
    return undefined;
  }
}
