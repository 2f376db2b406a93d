/*
 * A long command's progress (multiverse, probe): on a terminal one line rewritten in place (on stderr, so stdout
 * keeps the answer); off a terminal (a log, CI) plain lines, at most one every few seconds and the last one.
 */

/** At most one plain line per this many ms off a terminal: a long sweep's log stays readable. */
const PLAIN_EVERY_MS = 5_000;

export function progressPrinter(stream: NodeJS.WriteStream = process.stderr, now: () => number = Date.now) {
  const tty = stream.isTTY === true;
  let last = '';
  let printedAt = -Infinity;
  let pending = false;
  return {
    update(line: string) {
      last = line;
      if (tty) {
        stream.write(`\r\u001b[2K${line}`);
        return;
      }
      if (now() - printedAt < PLAIN_EVERY_MS) {
        pending = true;
        return;
      }
      stream.write(`${line}\n`);
      printedAt = now();
      pending = false;
    },
    /** Ends the line on a terminal; off one, prints the last line if it was held back. */
    end() {
      if (tty && last) stream.write('\n');
      else if (pending) stream.write(`${last}\n`);
    },
  };
}
