import { readFileSync } from 'node:fs';

/** The environment variable `parley agent` reads a seat token from. */
export const TOKEN_ENV = 'PARLEY_SEAT_TOKEN';

export type TokenSource = { ok: true; token: string; from: string } | { ok: false; message: string };

/**
 * Where `parley agent` gets its seat token, so that it need not be on the command line (where the
 * process list and npm's debug logs show it): `--token-file F` (`-` = standard input), then
 * $PARLEY_SEAT_TOKEN, then `--token T` (kept for convenience; the README shows the other forms).
 * Exactly one source may be given.
 */
export function readSeatToken(flags: { token?: string | undefined; tokenFile?: string | undefined }, env: NodeJS.ProcessEnv = process.env): TokenSource {
  const given = [flags.token !== undefined && '--token', flags.tokenFile !== undefined && '--token-file', env[TOKEN_ENV] !== undefined && `$${TOKEN_ENV}`].filter(Boolean);
  if (given.length === 0) return { ok: false, message: `a seat token is required: --token-file FILE, --token-file - (stdin) or $${TOKEN_ENV}` };
  if (given.length > 1) return { ok: false, message: `give the seat token one way only (got ${given.join(', ')})` };
  let raw: string;
  let from: string;
  if (flags.tokenFile !== undefined) {
    from = flags.tokenFile === '-' ? 'standard input' : flags.tokenFile;
    try {
      // fd 0 reads standard input to its end (a pipe or a redirected file).
      raw = readFileSync(flags.tokenFile === '-' ? 0 : flags.tokenFile, 'utf8');
    } catch (err) {
      return { ok: false, message: `cannot read the token from ${from}: ${(err as Error).message}` };
    }
  } else if (flags.token !== undefined) {
    raw = flags.token;
    from = '--token';
  } else {
    raw = env[TOKEN_ENV]!;
    from = `$${TOKEN_ENV}`;
  }
  // A token file may hold `seat <id> token <T> [url <U>]` lines (serve --tokens-file) or the bare token.
  const lines = raw.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  if (lines.length !== 1) return { ok: false, message: `${from} must hold exactly one token (found ${lines.length} non-empty lines)` };
  const token = lines[0]!.replace(/^seat \S+ token /, '').replace(/ url \S+$/, '');
  if (!/^[0-9A-Za-z_-]{1,128}$/.test(token)) return { ok: false, message: `${from} does not hold a seat token` };
  return { ok: true, token, from };
}
