/**
 * Text that came from elsewhere (a partner's move, a scenario file, a remote client) made safe to print
 * on a terminal or in a log line — the one owner of that escaping, used by the human client and by every
 * line the CLI prints about scenarios and clients:
 * escape sequences (CSI, OSC, any ESC pair) removed, other control characters (bell, backspace, C1,
 * DEL) removed, bidirectional overrides removed, and line breaks (\n, \r, U+2028/9) shown as a visible
 * `⏎` — so such text can neither drive the terminal nor start a line of its own.
 */
export function terminalSafe(text: string): string {
  return text
    // CSI (ESC [ … final byte), OSC (ESC ] … BEL or ST), then any other ESC + one character.
    .replace(/\u001b\[[0-?]*[ -/]*[@-~]/g, '')
    .replace(/\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?/g, '')
    .replace(/\u001b[\s\S]?/g, '')
    .replace(/\r\n|[\r\n\u2028\u2029\u0085]/g, ' ⏎ ')
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
    .replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '');
}

/**
 * One printed line with its origin in front: `<origin> │ <text>`. Every line the human client prints
 * goes through here, so a reader always sees who a line comes from (`parley` for the client's own
 * lines, `scene`, `you`, or the partner's seat id) and nothing a partner writes can forge a line.
 */
export function originLine(origin: string, text: string): string {
  return `${terminalSafe(origin).padEnd(8)} │ ${terminalSafe(text)}`;
}
