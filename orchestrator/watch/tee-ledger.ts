import type { Ledger } from '../ledger.js';

/**
 * A ledger that also hands each appended line to `also` (the watch feed). The file is written first and
 * stays the record; a failure in `also` is swallowed, so watching can never lose or stop a ledger line.
 */
export function teeLedger(ledger: Ledger, also: (line: string) => void): Ledger {
  return {
    append(line) {
      ledger.append(line);
      try {
        also(line);
      } catch {
        // The watch page is a convenience; the ledger is the invariant.
      }
    },
    close: () => ledger.close(),
  };
}
