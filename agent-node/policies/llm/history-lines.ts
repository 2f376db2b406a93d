import type { Action, TurnEvent } from '../../../protocol/index.js';

/** Renders one move as a history line from its turn, the speaker's name as shown, and the action. */
export type MoveLine = (turn: number, name: string, action: Action) => string;

interface Rendered {
  turn: number;
  name: string;
  type: Action['type'];
  argument: string;
  line: string;
}

/**
 * `render` with each event's line kept: a seat's prompt shows the whole conversation every turn, and
 * re-quoting every earlier move (escaping partner text with regular expressions) grew with the episode.
 * Why it is safe: a line is reused only for the same event object with the same turn, name, action type and
 * argument (the only inputs of `render`), so any change renders afresh; the WeakMap lets an ended
 * episode's events go.
 */
export function keptLines(render: MoveLine): (event: TurnEvent, name: string) => string {
  const lines = new WeakMap<TurnEvent, Rendered>();
  return (event, name) => {
    const { turn, action } = event;
    const known = lines.get(event);
    if (known && known.turn === turn && known.name === name && known.type === action.type && known.argument === action.argument) return known.line;
    const line = render(turn, name, action);
    lines.set(event, { turn, name, type: action.type, argument: action.argument, line });
    return line;
  };
}
