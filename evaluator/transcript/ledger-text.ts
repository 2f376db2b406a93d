/**
 * One ledger line (a frame exactly as the seat's process was sent it) as text for `parley show --seat`.
 * Turn frames fit on one line; every other frame (welcome, partner state, …) is printed in full, so
 * nothing the seat was told is left out.
 */
export function frameText(index: number, line: string): string {
  let frame: Record<string, unknown>;
  try {
    frame = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return `[${index}] (not JSON) ${line}`;
  }
  const type = String(frame.type ?? '?');
  const action = frame.action as { type?: string; argument?: string; to?: unknown } | undefined;
  switch (type) {
    case 'turn.request':
      return `[${index}] turn.request  turn ${frame.turn}: your move (allowed: ${(frame.actions as string[] | undefined)?.join(', ') ?? '?'}; ${frame.deadlineMs} ms)`;
    case 'turn.event':
      // A private move keeps its recipients on the line, as the frame carried them: `to ["agent2"]`.
      return `[${index}] turn.event    turn ${frame.turn}: ${frame.seat} [${action?.type}] ${JSON.stringify(action?.argument ?? '')}${Array.isArray(action?.to) ? ` private to ${JSON.stringify(action.to)}` : Array.isArray(frame.to) ? ` sent to ${JSON.stringify(frame.to)}` : ''}`;
    case 'game.notice':
      // A game's moderator: one line, marked when it was addressed to this seat alone.
      return `[${index}] game.notice   round ${frame.round} ${frame.phase}: ${JSON.stringify(frame.text ?? '')}${Array.isArray(frame.to) ? ' (to this seat only)' : ''}`;
    case 'episode.end':
      // The seat's own end score (the task's verdict, `serve --judge`'s scores) is part of what it was told.
      return `[${index}] episode.end   ${frame.reason}${frame.detail ? ` (${frame.detail})` : ''}${frame.score ? ` score ${JSON.stringify(frame.score)}` : ''}`;
    default: {
      const { v: _v, id: _id, type: _t, ...rest } = frame;
      const body = JSON.stringify(rest, null, 2).split('\n').map((l) => `      ${l}`).join('\n');
      return `[${index}] ${type}\n${body}`;
    }
  }
}
