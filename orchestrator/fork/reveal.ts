/**
 * `parley fork --reveal FROM.FIELD:TO`: private fields of one seat delivered to another seat at the fork
 * turn, as one logged `peer.state` frame (built by `observe.ts`, the one projection). Parsed here from
 * the command line and from run.json, both untrusted: seats must be the scenario's, fields from the list.
 */

/** Private fields a reveal may deliver: the goal, the secret, the private hints, the task data, or the whole profile. */
export const REVEAL_FIELDS = ['goal', 'secret', 'hints', 'task', 'profile'] as const;
export type RevealField = (typeof REVEAL_FIELDS)[number];

/** What one seat (`to`) is told of another (`from`) at the fork turn. */
export interface Reveal {
  from: string;
  fields: RevealField[];
  to: string;
}

/** The grammar of one reveal: `seat.field[+field…]:seat`. */
const REVEAL = /^([A-Za-z0-9_-]{1,64})\.([a-z+]{1,64}):([A-Za-z0-9_-]{1,64})$/;

/**
 * Parses `agent2.goal:agent1` (several fields: `agent2.goal+secret:agent1`) against the scenario's seats.
 * Returns the reveal, or a message naming what is wrong.
 */
export function parseReveal(text: string, seats: readonly string[]): { ok: true; reveal: Reveal } | { ok: false; message: string } {
  const m = REVEAL.exec(text);
  if (!m) return { ok: false, message: `--reveal '${text}' is not SEAT.FIELD:SEAT (e.g. agent2.goal:agent1)` };
  const [, from, fieldText, to] = m as unknown as [string, string, string, string];
  const fields = fieldText.split('+');
  const bad = fields.find((f) => !(REVEAL_FIELDS as readonly string[]).includes(f));
  if (bad !== undefined) return { ok: false, message: `--reveal '${text}': '${bad}' is not a private field (choose from ${REVEAL_FIELDS.join(', ')})` };
  for (const seat of [from, to]) {
    if (!seats.includes(seat)) return { ok: false, message: `--reveal '${text}': the episode has no seat '${seat}' (seats: ${seats.join(', ')})` };
  }
  if (from === to) return { ok: false, message: `--reveal '${text}': a seat already knows its own private state` };
  return { ok: true, reveal: { from, fields: [...new Set(fields)] as RevealField[], to } };
}

/** Parses every reveal; the first problem, or all of them. */
export function parseReveals(texts: readonly string[], seats: readonly string[]): { ok: true; reveals: Reveal[] } | { ok: false; message: string } {
  const reveals: Reveal[] = [];
  for (const t of texts) {
    const r = parseReveal(t, seats);
    if (!r.ok) return r;
    reveals.push(r.reveal);
  }
  return { ok: true, reveals };
}
