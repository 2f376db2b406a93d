import * as z from 'zod';
import { recipientProblem, type Action, type ActionType, type ScriptRequest, type ScriptTurn } from '../../../protocol/index.js';
import { lenientJson, strictJson } from './lenient-json.js';
import { normaliseActionType, type Parsed } from './parse-action.js';

/**
 * JSON schema of a whole script for structured output; `seat` is an enum of the seat ids. A group's
 * script (three or more seats) may make a turn private: `to`, the seat ids who hear it ([] for everyone).
 */
export function scriptJsonSchema(seats: readonly string[], actions: readonly ActionType[]): { name: string; schema: Record<string, unknown> } {
  const group = seats.length > 2;
  return {
    name: 'parley_script',
    schema: {
      type: 'object',
      properties: {
        turns: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              seat: { type: 'string', enum: [...seats] },
              action_type: { type: 'string', enum: [...actions] },
              argument: { type: 'string' },
              ...(group ? { to: { type: 'array', items: { type: 'string', enum: [...seats] } } } : {}),
            },
            required: group ? ['seat', 'action_type', 'argument', 'to'] : ['seat', 'action_type', 'argument'],
            additionalProperties: false,
          },
        },
      },
      required: ['turns'],
      additionalProperties: false,
    },
  };
}

export const SCRIPT_SHAPE = '{"turns": [{"seat": "<seat id>", "action_type": "<type>", "argument": "<text>"}, ...]}';

const asAction = (type: ActionType, argument: string) => ({ type, argument: type === 'none' || type === 'leave' ? '' : argument });

/**
 * A group script turn's `to` (seat ids, names or first names) applied to its action: [] or absent is
 * public; a list the live rule refuses (protocol/action.ts) makes the script unreadable, never public.
 * Two seats: ignored, as before.
 */
function withTo(turn: ScriptTurn, raw: unknown, request: ScriptRequest, resolve: (raw: string) => string | null, i: number): Parsed<ScriptTurn> {
  const seats = request.background.seats.map((s) => s.seat);
  if (seats.length < 3 || raw === undefined || raw === null || (Array.isArray(raw) && raw.length === 0)) return { ok: true, value: turn, lenient: false };
  const list = typeof raw === 'string' ? [raw] : raw;
  if (!Array.isArray(list) || list.some((x) => typeof x !== 'string')) return { ok: false, reason: `turn ${i}: "to" must be a list of seat ids` };
  const to = (list as string[]).map((x) => resolve(x) ?? x);
  const action: Action = { ...turn.action, to };
  const problem = recipientProblem(action, turn.seat, seats);
  return problem ? { ok: false, reason: `turn ${i}: ${problem}` } : { ok: true, value: { seat: turn.seat, action }, lenient: false };
}

/** Strict reading: `{turns:[{seat, action_type, argument}]}`, known seats and allowed types, at most maxTurns. */
export function strictScript(value: unknown, request: ScriptRequest): Parsed<ScriptTurn[]> {
  const seats = request.background.seats.map((s) => s.seat) as [string, ...string[]];
  const actions = request.limits.actions as [ActionType, ...ActionType[]];
  const schema = z
    .object({
      turns: z
        .array(z.object({ seat: z.enum(seats), action_type: z.enum(actions), argument: z.string().max(8000), to: z.array(z.string()).max(12).optional() }).strict())
        .min(1)
        .max(request.limits.maxTurns),
    })
    .strict();
  const r = schema.safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0];
    return { ok: false, reason: `${issue?.path.join('.') || 'reply'}: ${issue?.message ?? 'wrong shape'}` };
  }
  const resolve = seatResolver(request);
  const turns: ScriptTurn[] = [];
  for (const [i, t] of r.data.turns.entries()) {
    const turn = withTo({ seat: t.seat, action: asAction(t.action_type, t.argument) }, t.to, request, resolve, i);
    if (!turn.ok) return turn;
    turns.push(turn.value);
  }
  return { ok: true, value: turns, lenient: false };
}

const LIST_KEYS = ['turns', 'script', 'dialogue', 'dialog', 'conversation', 'lines', 'messages'];
const SEAT_KEYS = ['seat', 'speaker', 'character', 'name', 'agent', 'role', 'who'];
const TYPE_KEYS = ['action_type', 'actiontype', 'type', 'action', 'kind'];
const ARG_KEYS = ['argument', 'arg', 'content', 'text', 'utterance', 'line', 'message', 'says', 'speech', 'dialogue'];

const norm = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k.toLowerCase().replace(/[\s-]+/g, '_'), v]));

/** A speaker as the model wrote it → seat id: the id itself, the full name, or a unique first name. */
function seatResolver(request: ScriptRequest): (raw: string) => string | null {
  const entries = request.background.seats.map((s) => ({ seat: s.seat, name: (s.profile.name ?? '').toLowerCase() }));
  return (raw) => {
    const key = raw.trim().toLowerCase().replace(/^seat\s+/, '').replace(/^"|"$/g, '');
    const byId = entries.find((e) => e.seat.toLowerCase() === key);
    if (byId) return byId.seat;
    const byName = entries.find((e) => e.name && e.name === key);
    if (byName) return byName.seat;
    const byFirst = entries.filter((e) => e.name && e.name.split(/\s+/)[0] === key.split(/\s+/)[0]);
    return byFirst.length === 1 ? byFirst[0]!.seat : null;
  };
}

/**
 * Lenient reading: fences and prose stripped; a bare array or another list key accepted; speaker names
 * mapped to seats; type spellings mapped; a script longer than max turns cut to max turns.
 */
export function lenientScript(content: string, request: ScriptRequest): Parsed<ScriptTurn[]> {
  const extracted = lenientJson(content);
  if (!extracted.ok) return extracted;
  let list: unknown = extracted.value;
  if (list && typeof list === 'object' && !Array.isArray(list)) {
    const obj = norm(list as Record<string, unknown>);
    list = LIST_KEYS.map((k) => obj[k]).find((v) => Array.isArray(v));
  }
  if (!Array.isArray(list) || list.length === 0) return { ok: false, reason: 'the JSON has no list of turns' };
  const resolve = seatResolver(request);
  const turns: ScriptTurn[] = [];
  for (const [i, item] of list.entries()) {
    if (!item || typeof item !== 'object') return { ok: false, reason: `turn ${i} is not an object` };
    const t = norm(item as Record<string, unknown>);
    const rawSeat = SEAT_KEYS.map((k) => t[k]).find((v) => typeof v === 'string') as string | undefined;
    const seat = rawSeat === undefined ? null : resolve(rawSeat);
    if (!seat) return { ok: false, reason: `turn ${i}: unknown speaker ${JSON.stringify(rawSeat ?? null)}` };
    const typeKey = TYPE_KEYS.find((k) => typeof t[k] === 'string' && normaliseActionType(t[k] as string));
    const type = typeKey ? normaliseActionType(t[typeKey] as string)! : null;
    if (!type) return { ok: false, reason: `turn ${i}: no recognisable action type` };
    if (!request.limits.actions.includes(type)) return { ok: false, reason: `turn ${i}: action type "${type}" is not allowed` };
    const argKey = ARG_KEYS.find((k) => k !== typeKey && t[k] !== undefined && t[k] !== null);
    const arg = argKey ? t[argKey] : '';
    if (argKey === undefined && type !== 'none' && type !== 'leave') return { ok: false, reason: `turn ${i}: the "${type}" action has no argument` };
    const turn = withTo({ seat, action: asAction(type, (typeof arg === 'string' ? arg : JSON.stringify(arg)).slice(0, 8000)) }, t.to ?? t.recipients, request, resolve, i);
    if (!turn.ok) return turn;
    turns.push(turn.value);
  }
  return { ok: true, value: turns.slice(0, request.limits.maxTurns), lenient: true };
}

/** Strict first, then lenient. */
export function parseScript(content: string, request: ScriptRequest): Parsed<ScriptTurn[]> {
  const json = strictJson(content);
  if (json.ok) {
    const strict = strictScript(json.value, request);
    if (strict.ok) return strict;
    const lenient = lenientScript(content, request);
    return lenient.ok ? lenient : { ok: false, reason: `${strict.reason}; ${lenient.reason}` };
  }
  const lenient = lenientScript(content, request);
  return lenient.ok ? lenient : { ok: false, reason: `${json.reason}; ${lenient.reason}` };
}
