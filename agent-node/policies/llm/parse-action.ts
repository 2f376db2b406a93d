import * as z from 'zod';
import { ACTION_TYPES, type Action, type ActionType } from '../../../protocol/index.js';
import { lenientJson, strictJson } from './lenient-json.js';
import { resolveTo, toJsonSchema, type Addressees } from './private-moves.js';

/** The result of reading a model reply: a value and whether leniency was needed, or why it failed. */
export type Parsed<T> = { ok: true; value: T; lenient: boolean } | { ok: false; reason: string };

/** The longest argument a move keeps, whichever reader (JSON reply, SOTOPIA's reading, a free-text script) read it. */
export const MAX_ARGUMENT = 8000;

/**
 * JSON schema of a move for structured output (strict mode: every field required, no extras). In a group
 * (`addressees`) it has `to` too, required as strict mode wants: [] for everyone (private-moves.ts).
 */
export function actionJsonSchema(allowed: readonly ActionType[], addressees: Addressees | null = null): { name: string; schema: Record<string, unknown> } {
  return {
    name: 'parley_action',
    schema: {
      type: 'object',
      properties: {
        action_type: { type: 'string', enum: [...allowed] },
        argument: { type: 'string' },
        ...(addressees ? { to: toJsonSchema(addressees) } : {}),
      },
      required: addressees ? ['action_type', 'argument', 'to'] : ['action_type', 'argument'],
      additionalProperties: false,
    },
  };
}

/** The expected shape, for reformat requests. */
export const ACTION_SHAPE = '{"action_type": "<type>", "argument": "<text>"}';

/** `none` and `leave` carry no argument on the wire (protocol/action.ts); a private move keeps its recipients. */
function finish(type: ActionType, argument: string, to?: string[]): Action {
  const action: Action = { type, argument: type === 'none' || type === 'leave' ? '' : argument };
  if (to !== undefined) action.to = to;
  return action;
}

type StrictReply = { action_type: ActionType; argument: string; to?: unknown };

/** Schemas by allowed set (and whether `to` may be given): built once (building a zod schema costs more than using it, on every turn). */
const strictSchemas = new Map<string, z.ZodType<StrictReply>>();

function strictSchema(allowed: readonly ActionType[], withTo: boolean) {
  const key = `${allowed.join('\u0000')}\u0001${withTo}`;
  let schema = strictSchemas.get(key);
  if (!schema) {
    const shape = { action_type: z.enum(allowed as [ActionType, ...ActionType[]]), argument: z.string().max(MAX_ARGUMENT) };
    schema = (withTo ? z.object({ ...shape, to: z.array(z.string()).max(12).optional() }) : z.object(shape)).strict();
    strictSchemas.set(key, schema);
  }
  return schema;
}

/** Strict reading: exactly `{"action_type", "argument"}` with an allowed type (and `"to"` in a group). */
export function strictAction(value: unknown, allowed: readonly ActionType[], addressees: Addressees | null = null): Parsed<Action> {
  const r = strictSchema(allowed, addressees !== null).safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0];
    return { ok: false, reason: `${issue?.path.join('.') || 'reply'}: ${issue?.message ?? 'wrong shape'}` };
  }
  const to = resolveTo(r.data.to, r.data.action_type, addressees);
  if (!to.ok) return to;
  return { ok: true, value: finish(r.data.action_type, r.data.argument, to.to), lenient: false };
}

const TYPE_SYNONYMS: Record<string, ActionType> = {
  'none': 'none', 'nothing': 'none', 'do nothing': 'none', 'no action': 'none', 'pass': 'none', 'wait': 'none', 'silence': 'none',
  'speak': 'speak', 'say': 'speak', 'talk': 'speak', 'speech': 'speak', 'said': 'speak', 'reply': 'speak', 'respond': 'speak', 'message': 'speak', 'utterance': 'speak',
  'non-verbal communication': 'non-verbal communication', 'non-verbal': 'non-verbal communication', 'nonverbal': 'non-verbal communication',
  'non verbal': 'non-verbal communication', 'nonverbal communication': 'non-verbal communication', 'non verbal communication': 'non-verbal communication',
  'gesture': 'non-verbal communication', 'body language': 'non-verbal communication',
  'action': 'action', 'physical action': 'action', 'act': 'action', 'do': 'action',
  'leave': 'leave', 'left': 'leave', 'leave the conversation': 'leave', 'left the conversation': 'leave', 'leave conversation': 'leave', 'exit': 'leave', 'end': 'leave',
};

/** A model's spelling of an action type → the protocol's, or null. */
export function normaliseActionType(raw: string): ActionType | null {
  const key = raw.trim().toLowerCase().replace(/[_]+/g, ' ').replace(/\s+/g, ' ').replace(/^"|"$/g, '');
  if ((ACTION_TYPES as readonly string[]).includes(key)) return key as ActionType;
  return TYPE_SYNONYMS[key] ?? TYPE_SYNONYMS[key.replace(/-/g, ' ')] ?? null;
}

const TYPE_KEYS = ['action_type', 'actiontype', 'type', 'action', 'act', 'kind', 'move'];
const TO_KEYS = ['to', 'recipients', 'recipient'];
const ARG_KEYS = ['argument', 'arg', 'args', 'arguments', 'content', 'text', 'utterance', 'message', 'say', 'speech', 'value', 'details', 'description'];

const normKey = (k: string) => k.toLowerCase().replace(/[\s-]+/g, '_');

/** Pull type and argument out of an object with other key spellings (or wrapped one level deep). */
function looseFields(value: unknown, depth = 0): { type?: string; argument?: unknown; to?: unknown } | null {
  if (Array.isArray(value)) return value.length > 0 ? looseFields(value[0], depth + 1) : null;
  if (!value || typeof value !== 'object') return null;
  const obj = Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [normKey(k), v]));
  let type: string | undefined;
  let typeKey: string | undefined;
  for (const k of TYPE_KEYS) {
    const v = obj[k];
    if (typeof v === 'string' && normaliseActionType(v)) {
      type = v;
      typeKey = k;
      break;
    }
  }
  let argument: unknown;
  for (const k of ARG_KEYS) {
    if (k !== typeKey && obj[k] !== undefined) {
      argument = obj[k];
      break;
    }
  }
  if (type !== undefined) return { type, argument, to: TO_KEYS.map((k) => obj[k]).find((v) => v !== undefined) };
  if (depth < 2) {
    for (const v of Object.values(obj)) {
      if (v && typeof v === 'object') {
        const inner = looseFields(v, depth + 1);
        if (inner?.type) return inner;
      }
    }
  }
  return null;
}

/**
 * Lenient reading: fences and prose stripped, key synonyms (`action`, `type`, `content`…) and type
 * spellings (`non-verbal`, `say`, `left the conversation`…) mapped, an over-long argument cut.
 */
export function lenientAction(content: string, allowed: readonly ActionType[], addressees: Addressees | null = null): Parsed<Action> {
  const extracted = lenientJson(content);
  if (!extracted.ok) return extracted;
  const fields = looseFields(extracted.value);
  if (!fields?.type) return { ok: false, reason: 'the JSON has no recognisable action type' };
  const type = normaliseActionType(fields.type)!;
  if (!allowed.includes(type)) return { ok: false, reason: `action type "${type}" is not allowed now (allowed: ${allowed.join(', ')})` };
  let argument = fields.argument;
  if (argument === undefined || argument === null) {
    if (type !== 'none' && type !== 'leave') return { ok: false, reason: `the "${type}" action has no argument` };
    argument = '';
  }
  if (typeof argument !== 'string') argument = typeof argument === 'object' ? JSON.stringify(argument) : String(argument);
  const to = resolveTo(fields.to, type, addressees);
  if (!to.ok) return to;
  return { ok: true, value: finish(type, (argument as string).slice(0, MAX_ARGUMENT), to.to), lenient: true };
}

/** Strict first, then lenient. `addressees`: a group seat's others, whom `"to"` may name (private-moves.ts). */
export function parseAction(content: string, allowed: readonly ActionType[], addressees: Addressees | null = null): Parsed<Action> {
  const json = strictJson(content);
  if (json.ok) {
    const strict = strictAction(json.value, allowed, addressees);
    if (strict.ok) return strict;
    const lenient = lenientAction(content, allowed, addressees);
    return lenient.ok ? lenient : { ok: false, reason: `${strict.reason}; ${lenient.reason}` };
  }
  const lenient = lenientAction(content, allowed, addressees);
  return lenient.ok ? lenient : { ok: false, reason: `${json.reason}; ${lenient.reason}` };
}
