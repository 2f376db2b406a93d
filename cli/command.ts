/**
 * The one command-line layer every `parley` command goes through: a command declares its usage, summary,
 * flags (in cli/args.ts's `FlagSpecs` shape) and positional arguments once; the same declaration parses
 * argv, generates `--help`, and lets a test hold the README's command lines against the parser.
 * Mistakes are thrown as UsageError and printed by cli/main.ts as one line, `parley <cmd>: <what>`, exit 2.
 */
import { formatHelp, parseArgs, type FlagSpecs, type FlagValue } from './args.js';

/** What a command accepts. */
export interface CommandSpec {
  /** As typed after `parley`, e.g. `run` or `scenarios import`. */
  name: string;
  /** The usage line without `usage: `, e.g. `parley eval DIR --judge SPEC [options]`. */
  usage: string;
  /** A paragraph shown under the usage line in `--help`. */
  summary: string;
  flags: FlagSpecs;
  /** How many positional arguments (default none), and what they are called in error messages. */
  positionals?: { min: number; max: number; names: string };
}

/** A subcommand (`parley scenarios import`): its spec, from which its help is generated, and its body. */
export interface Subcommand {
  spec: CommandSpec;
  run(argv: string[]): Promise<number>;
}

/** A usage mistake (bad flag, missing argument, out-of-range value): printed as one line, exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The values a parse of these flags gives, typed by their declarations (`as const` flag specs). */
export type FlagValuesOf<F extends FlagSpecs> = {
  [K in keyof F]?: F[K]['type'] extends 'boolean' ? boolean : F[K]['multiple'] extends true ? string[] : F[K]['type'] extends 'number' ? number : string;
};

/** Positional arguments a command checks itself (with its own messages), so the parser lets any number through. */
export const OWN_POSITIONALS = { min: 0, max: Number.POSITIVE_INFINITY, names: '' } as const;

export interface Parsed {
  flags: Record<string, FlagValue>;
  positionals: string[];
}

/** Every command accepts `--help` / `-h`; it is added here so no spec can forget it. */
const HELP_FLAG: FlagSpecs = { help: { type: 'boolean', describe: 'show this help' } };

/** The `--help` text of a command, generated from its spec. */
export function commandHelp(spec: CommandSpec): string {
  return formatHelp(spec.usage, spec.summary, { ...spec.flags, ...HELP_FLAG });
}

/**
 * Parses argv against a spec. Returns null after printing the help when `--help` was asked for;
 * throws UsageError for anything the spec does not allow.
 */
export function parseCommand(spec: CommandSpec, argv: readonly string[], print: (text: string) => void = console.log): Parsed | null {
  const result = parseArgs(argv, { ...spec.flags, ...HELP_FLAG });
  if (!result.ok) throw new UsageError(`${result.message} (see parley ${spec.name} --help)`);
  if (result.flags.help === true) {
    print(commandHelp(spec));
    return null;
  }
  delete result.flags.help;
  checkPositionals(spec, result.positionals);
  return { flags: result.flags, positionals: result.positionals };
}

/**
 * A command's body behind the prologue every command shares: argv parsed against its spec (a mistake is
 * thrown as UsageError), `--help` answered with exit 0, and only then the body, with what was parsed and
 * the words as typed (a command that prints a resume line repeats them).
 */
export function commandRun(spec: CommandSpec, body: (args: Parsed, argv: readonly string[]) => Promise<number>): (argv: string[]) => Promise<number> {
  return async (argv) => {
    const args = parseCommand(spec, argv);
    return args ? body(args, argv) : 0;
  };
}

/** parseCommand for a caller that answered `--help` itself: the flags typed by their declarations. */
export function parseFlags<F extends FlagSpecs>(spec: CommandSpec & { flags: F }, argv: readonly string[]): { values: FlagValuesOf<F>; positionals: string[] } {
  const parsed = parseCommand(spec, argv, () => undefined) ?? { flags: { help: true }, positionals: [] };
  return { values: parsed.flags as FlagValuesOf<F>, positionals: parsed.positionals };
}

/**
 * A spec from a help text written as a `usage: …` line, a blank line and the summary (the form of the
 * `parley scenarios` subcommands), whose positional arguments the command checks with its own messages.
 */
export function specOfHelp<F extends FlagSpecs>(name: string, text: string, flags: F): CommandSpec & { flags: F } {
  const [first = '', ...rest] = text.split('\n');
  return { name, usage: first.replace(/^usage: /, ''), summary: rest.join('\n').replace(/^\n/, ''), flags, positionals: OWN_POSITIONALS };
}

/** Positional count against the spec, with the expected arguments named. */
export function checkPositionals(spec: CommandSpec, positionals: readonly string[]): void {
  const p = spec.positionals ?? { min: 0, max: 0, names: '' };
  if (positionals.length > p.max) {
    throw new UsageError(p.max === 0 ? `unexpected argument '${positionals[0]}'` : `unexpected argument '${positionals[p.max]}' (expected ${p.names})`);
  }
  if (positionals.length < p.min) throw new UsageError(`missing ${p.names}`);
}

/** A flag that must be a positive integer, or a UsageError naming it. */
export function positiveInt(flags: Record<string, FlagValue>, name: string, fallback: number): number {
  const v = flags[name];
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw new UsageError(`--${name} must be a positive integer (got ${String(v)})`);
  return v;
}

/** `KEY=VALUE` → [key, value]; JSON literals (numbers, booleans, …) are parsed, anything else stays a string. */
export function parseParam(text: string, flag = '--param'): [string, unknown] {
  const at = text.indexOf('=');
  if (at <= 0) throw new UsageError(`${flag} expects KEY=VALUE (got '${text}')`);
  const key = text.slice(0, at).trim();
  const raw = text.slice(at + 1).trim();
  try {
    return [key, JSON.parse(raw)];
  } catch {
    return [key, raw];
  }
}
