import { formatHelp, parseArgs, type FlagSpecs } from '../args.js';
import { UsageError } from '../command.js';
import { ScenarioError } from '../../scenarios/errors.js';

export { UsageError };

/** Exit codes of `parley scenarios …`: 0 ok, 1 bad data / failed generation, 2 usage. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** A subcommand's options: each a string (optionally repeatable) or a boolean flag. */
export type Options = Record<string, { type: 'string' | 'boolean'; multiple?: boolean; describe?: string; metavar?: string }>;

type Values<O extends Options> = { [K in keyof O]?: O[K]['type'] extends 'boolean' ? boolean : O[K]['multiple'] extends true ? string[] : string };

/** The options as the shared CLI parser's flag specs (cli/args.ts), so every command parses alike. */
export function optionSpecs(options: Options): FlagSpecs {
  const specs: FlagSpecs = {};
  for (const [name, o] of Object.entries(options)) specs[name] = { type: o.type, describe: o.describe ?? '', ...(o.metavar ? { metavar: o.metavar } : {}), ...(o.multiple ? { multiple: true } : {}) };
  return { ...specs, help: { type: 'boolean', describe: 'show this help' } };
}

/** A subcommand's help: its own text, then the options section generated from the options the parser uses. */
export function subcommandHelp(text: string, options: Options): string {
  const specs = optionSpecs(options);
  return `${text}\n\n${formatHelp('', '', specs).split('\n').slice(4).join('\n')}`;
}

/** Parses argv with the shared CLI parser; a mistake is thrown as a UsageError naming the flag. */
export function parse<O extends Options>(argv: string[], options: O): { values: Values<O>; positionals: string[] } {
  const result = parseArgs(argv, optionSpecs(options));
  if (!result.ok) throw new UsageError(result.message);
  return { values: result.flags as Values<O>, positionals: result.positionals };
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

/** A subcommand: its help text, the options its parser accepts (the help names each one), and its body. */
export interface Subcommand {
  help: string;
  /** Declared once: the parser and the options section of `help` both read it (see subcommandHelp). */
  options?: Options;
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
      console.error(`parley scenarios ${name}: ${err.message} (see parley scenarios ${name} --help)`);
      return EXIT.usage;
    }
    if (err instanceof ScenarioError) {
      console.error(`parley scenarios ${name}: ${err.message} [${err.code}]`);
      return EXIT.failed;
    }
    throw err;
  }
}
