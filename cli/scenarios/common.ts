import { UsageError } from '../command.js';

/**
 * What the `parley scenarios` subcommands share beside the one command framework (cli/command.ts):
 * their exit codes, integer options given as text, and a quiet end when the reader closes the pipe.
 */
export { UsageError };

/** Exit codes of `parley scenarios …`: 0 ok, 1 bad data / failed generation, 2 usage. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** A positive integer option, or a UsageError naming it. */
export function intOption(name: string, value: string | undefined, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be an integer ≥ ${min}, got '${value}'`);
  return n;
}

/** Lets `parley scenarios list … | head` end quietly when the reader closes the pipe. */
export function quietOnClosedPipe(): void {
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
}
