import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ScenarioError } from '../errors.js';

/** Exit codes of `parley scenarios …`: 0 ok, 1 bad data / failed generation, 2 usage. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** Thrown for a usage mistake; the dispatcher prints it with the subcommand's help. */
export class UsageError extends Error {}

/** `parseArgs` with usage errors turned into UsageError. */
export function parse<O extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, strict: true, options: { ...options, help: { type: 'boolean', short: 'h' } } });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

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

/** A subcommand: its help text and its body. */
export interface Subcommand {
  help: string;
  run(argv: string[]): Promise<number>;
}

/** Runs a subcommand, printing data errors (file, line, field) and usage errors the same way everywhere. */
export async function runSubcommand(name: string, sub: Subcommand, argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(sub.help);
    return EXIT.ok;
  }
  try {
    return await sub.run(argv);
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`parley scenarios ${name}: ${err.message}\n\n${sub.help}`);
      return EXIT.usage;
    }
    if (err instanceof ScenarioError) {
      console.error(`parley scenarios ${name}: ${err.message} [${err.code}]`);
      return EXIT.failed;
    }
    throw err;
  }
}
