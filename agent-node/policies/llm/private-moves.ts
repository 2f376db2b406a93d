import { PRIVATE_ACTION_TYPES, type ActionType } from '../../../protocol/index.js';
import type { SeatView } from '../../policy.js';
import { listNames, quotedList, type NameOf } from './render.js';

const quoted = (xs: readonly string[]) => listNames(xs.map((x) => JSON.stringify(x)));

/**
 * Private moves for LLM seats (issue 39): in a group (three or more seats) the reply may carry `"to"`, a
 * list of the others' names, and the move then reaches only them (SOTOPIA's `AgentAction.to`). Two seats
 * have no one to leave out: their prompts, schemas and replies are exactly as before.
 */

/** Who a seat may address, by every spelling it may use: a name as its prompt shows it, a first name, a seat id. */
export interface Addressees {
  /** The seat itself (naming it is an error the model is told about, as SOTOPIA's validator does). */
  self: string;
  /** The others' names as the prompt calls them, in seat order (the schema's enum). */
  names: string[];
  /** Lower-cased spelling → seat id. */
  bySpelling: Map<string, string>;
}

/** The others a seat may address privately, or null when it cannot (two seats, or no private type allowed now). */
export function addresseesOf(view: SeatView, nameOf: NameOf, actions: readonly ActionType[]): Addressees | null {
  const seats = view.welcome.scenario.seats;
  if (seats.length < 3 || !actions.some((a) => PRIVATE_ACTION_TYPES.has(a))) return null;
  const self = view.welcome.seat;
  const bySpelling = new Map<string, string>();
  const names: string[] = [];
  for (const seat of seats) {
    const name = nameOf(seat);
    const spellings = [name, seat, name.trim().split(/\s+/)[0] ?? name];
    if (seat !== self) names.push(name);
    // A full name or seat id wins over a first name another participant shares.
    for (const s of spellings) if (!bySpelling.has(s.toLowerCase())) bySpelling.set(s.toLowerCase(), seat);
  }
  return { self, names, bySpelling };
}

/** The reply-format line for `"to"` (`{{private_moves}}`): empty where a seat cannot address anyone privately. */
export function privateMovesGuide(addressees: Addressees | null, actions: readonly ActionType[]): string {
  if (!addressees) return '';
  const types = actions.filter((a) => PRIVATE_ACTION_TYPES.has(a));
  return [
    `- "to" makes the move private: a list of the names who should receive it, chosen from ${quoted(addressees.names)}; only they and you will see it, marked [private to …].`,
    `  Use [] (or leave "to" out) to address everyone. Only ${quoted(types)} can be private.`,
  ].join('\n');
}

/** The JSON schema of `"to"` for structured output: every name the seat may address, [] for everyone. */
export function toJsonSchema(addressees: Addressees): Record<string, unknown> {
  return { type: 'array', items: { type: 'string', enum: [...addressees.names] } };
}

export type ResolvedTo = { ok: true; to: string[] | undefined } | { ok: false; reason: string };

/**
 * A reply's `"to"` as seat ids: names (any spelling `addresseesOf` knows) mapped, repeats dropped, an
 * empty list read as public. Anything else (an unknown name, the seat itself, a type that cannot be
 * private) is a reason the reply is unreadable, so the repair ladder asks once more, as SOTOPIA asked its
 * agent to regenerate a reply with invalid recipients.
 */
export function resolveTo(raw: unknown, type: ActionType, addressees: Addressees | null): ResolvedTo {
  // Two seats: a stray "to" is ignored, as any unknown key always was, so their replies read as before.
  if (!addressees || raw === undefined || raw === null || (Array.isArray(raw) && raw.length === 0) || raw === '') return { ok: true, to: undefined };
  const list = typeof raw === 'string' ? [raw] : raw;
  if (!Array.isArray(list) || list.some((x) => typeof x !== 'string')) return { ok: false, reason: 'to: must be a list of names' };
  if (!PRIVATE_ACTION_TYPES.has(type)) return { ok: false, reason: `to: a "${type}" move cannot be private (only ${[...PRIVATE_ACTION_TYPES].join(', ')})` };
  const seats: string[] = [];
  for (const name of list as string[]) {
    const seat = addressees.bySpelling.get(name.trim().toLowerCase());
    if (!seat) return { ok: false, reason: `to: "${name}" is not one of the others (${quotedList(addressees.names)})` };
    if (seat === addressees.self) return { ok: false, reason: `to: "${name}" is yourself; name only the others who should receive it` };
    if (!seats.includes(seat)) seats.push(seat);
  }
  return { ok: true, to: seats };
}
