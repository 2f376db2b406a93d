import { appendFileSync, chmodSync, closeSync, openSync } from 'node:fs';

/**
 * `parley serve --tokens-file F`: seat tokens go to F (created or truncated, owner-only mode 0600),
 * one `seat <seat-id> token <token>` line each, instead of standard output (which ends up in logs and
 * scrollback). `parley agent --token-file -` reads such a line from standard input.
 */
export class TokensFile {
  constructor(readonly path: string) {
    const fd = openSync(path, 'w', 0o600);
    closeSync(fd);
    // openSync's mode applies only when it creates the file: an existing one is made owner-only too.
    chmodSync(path, 0o600);
  }

  /** Appends one episode's seat lines. */
  write(tokens: Iterable<[seat: string, token: string]>): void {
    let text = '';
    for (const [seat, token] of tokens) text += `seat ${seat} token ${token}\n`;
    appendFileSync(this.path, text, { mode: 0o600 });
  }
}
