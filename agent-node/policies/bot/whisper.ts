import type { Action, TurnRequest } from '../../../protocol/index.js';
import type { SeatView } from '../../policy.js';

/**
 * A bot's deterministic whisper (issue 39), so runs and tests can drive private moves with bots: on one
 * turn the bot says its move privately to the named seats. Set per seat in `params`:
 *   whisperTo   seat ids, comma-separated (`agent2` or `agent2,agent3`)
 *   whisperAt   the episode turn (from 0) to whisper on; absent: the bot's first turn
 *   whisperText the words to whisper; absent: "Between you and me, <names>: " and what the bot would have said
 */
export interface WhisperOption {
  to: string[];
  at: number | null;
  text: string | null;
}

/** The whisper settings in a bot seat's params, or undefined without `whisperTo`. */
export function whisperOption(params: Record<string, unknown> | undefined): WhisperOption | undefined {
  const raw = params?.whisperTo;
  if (raw === undefined) return undefined;
  const to = (Array.isArray(raw) ? raw.map(String) : String(raw).split(',')).map((s) => s.trim()).filter(Boolean);
  const at = params?.whisperAt === undefined ? null : Number(params.whisperAt);
  const text = typeof params?.whisperText === 'string' && params.whisperText.trim() ? params.whisperText.trim() : null;
  return { to, at: at !== null && Number.isInteger(at) && at >= 0 ? at : null, text };
}

/**
 * The move to make: `move` unchanged unless this is the whisper's turn and speech is allowed; then a `speak`
 * to the whisper's seats. Seats that are not the bot's partners make the bot fail its turn explicitly (a
 * setting that cannot take effect is an error, never a public move in its place).
 */
export function withWhisper(option: WhisperOption | undefined, view: SeatView, request: TurnRequest, move: Action): Action {
  if (!option || !request.actions.includes('speak')) return move;
  const self = view.welcome.seat;
  const first = !view.events.some((e) => e.seat === self);
  if (option.at === null ? !first : request.turn !== option.at) return move;
  const partners = new Map(view.welcome.partners.map((p) => [p.seat, p.profile.name ?? p.seat]));
  const wrong = option.to.filter((s) => !partners.has(s));
  if (wrong.length || option.to.length === 0) throw new Error(`whisperTo names ${wrong.join(', ') || 'no seat'}: not a partner of seat ${self} (partners: ${[...partners.keys()].join(', ')})`);
  const names = option.to.map((s) => partners.get(s)!).join(' and ');
  const words = option.text ?? `Between you and me, ${names}: ${move.type === 'speak' ? move.argument : 'I would rather we two agree before the others do.'}`;
  return { type: 'speak', argument: words, to: [...new Set(option.to)] };
}
