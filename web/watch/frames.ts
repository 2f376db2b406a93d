import { el } from '../shared/dom.js';

/** A ledger line's frame, as far as the page needs to read it (the line itself is shown as is). */
interface LooseFrame {
  type?: unknown;
  turn?: unknown;
  seat?: unknown;
  action?: { type?: unknown; argument?: unknown; to?: unknown };
  deadlineMs?: unknown;
  reason?: unknown;
  self?: { profile?: { name?: unknown } };
  code?: unknown;
  message?: unknown;
  text?: unknown;
  to?: unknown;
}

const str = (v: unknown): string => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');

/** The frame of a ledger line (the orchestrator's own serialisation; unreadable lines are shown raw). */
export function parseLine(line: string): LooseFrame | null {
  try {
    const v: unknown = JSON.parse(line);
    return v && typeof v === 'object' ? (v as LooseFrame) : null;
  } catch {
    return null;
  }
}

/** The seat's own character name, from its welcome frame (what the seat was told it is). */
export const welcomeName = (f: LooseFrame | null): string => (f?.type === 'seat.welcome' ? str(f.self?.profile?.name) : '');

/** One line of what a frame told the seat. */
function summary(f: LooseFrame): string {
  switch (f.type) {
    case 'seat.welcome': return 'welcome: scenario, own profile and goal, partners as the relationship shows them';
    case 'peer.state': return "mindreading: the partner's private state";
    case 'turn.request': return `turn ${Number(f.turn) + 1}: your move (${Math.round(Number(f.deadlineMs) / 1000)} s)`;
    case 'turn.event': return `turn ${Number(f.turn) + 1} · ${str(f.seat)} ${str(f.action?.type)}${Array.isArray(f.action?.to) ? ` (private to ${f.action.to.map(str).join(', ')})` : ''}${f.action?.argument ? `: ${str(f.action.argument)}` : ''}`;
    case 'game.notice': return `moderator${Array.isArray(f.to) ? ' (to this seat only)' : ''}: ${str(f.text)}`;
    case 'script.request': return 'write the whole dialogue';
    case 'episode.end': return `episode over: ${str(f.reason)}`;
    case 'error': return `error ${str(f.code)}: ${str(f.message)}`;
    default: return '';
  }
}

/** A ledger line as a list item: its type, a one-line summary, and the whole frame on demand. Text only. */
export function frameItem(line: string): HTMLLIElement {
  const f = parseLine(line);
  let pretty = line;
  try {
    pretty = JSON.stringify(JSON.parse(line), null, 1);
  } catch {
    // shown raw
  }
  // The turn a frame belongs to, so the ledger columns can follow a selected turn together.
  const turn: Record<string, string> = typeof f?.turn === 'number' && Number.isInteger(f.turn) && f.turn >= 0 ? { 'data-turn': String(f.turn) } : {};
  return el('li', turn,
    el('span', { class: 'ftype' }, f ? str(f.type) || 'frame' : 'unreadable line'),
    ...(f && summary(f) ? [el('span', {}, summary(f))] : []),
    el('details', {}, el('summary', {}, 'Frame'), el('pre', {}, pretty)));
}
