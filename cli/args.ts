/**
 * A small flag parser for the CLI commands: `--name value`, `--name=value`, boolean `--name`,
 * comma lists. Unknown flags, missing values and non-numbers are errors naming the flag.
 */
export type FlagType = 'string' | 'number' | 'boolean' | 'list';

export interface FlagSpec {
  type: FlagType;
  describe: string;
  /** Placeholder shown in help, e.g. DIR or SPEC. */
  metavar?: string;
  /** A string flag that may be given several times (`--param a=1 --param b=2`): its value is a string[]. */
  multiple?: boolean;
}

export type FlagSpecs = Record<string, FlagSpec>;
export type FlagValue = string | number | boolean | string[];

export type ParsedArgs =
  | { ok: true; flags: Record<string, FlagValue>; positionals: string[] }
  | { ok: false; message: string };

export function parseArgs(argv: readonly string[], specs: FlagSpecs): ParsedArgs {
  const flags: Record<string, FlagValue> = {};
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-h') {
      flags.help = true;
      continue;
    }
    if (/^-[^-\d]/.test(arg)) return { ok: false, message: `unknown flag ${arg}` };
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    const spec = specs[name];
    if (!spec) return { ok: false, message: `unknown flag --${name}` };
    if (spec.type === 'boolean') {
      if (eq !== -1) {
        const v = arg.slice(eq + 1);
        if (v !== 'true' && v !== 'false') return { ok: false, message: `--${name} takes no value (or =true/=false)` };
        flags[name] = v === 'true';
      } else {
        flags[name] = true;
      }
      continue;
    }
    let value: string | undefined;
    if (eq !== -1) value = arg.slice(eq + 1);
    else {
      value = argv[i + 1];
      if (value === undefined || value.startsWith('--')) return { ok: false, message: `--${name} needs a value${spec.metavar ? ` (${spec.metavar})` : ''}` };
      i++;
    }
    if (spec.type === 'number') {
      const n = Number(value);
      if (value.trim() === '' || !Number.isFinite(n)) return { ok: false, message: `--${name} must be a number, got '${value}'` };
      flags[name] = n;
    } else if (spec.type === 'list') {
      flags[name] = value.split(',').map((s) => s.trim()).filter(Boolean);
    } else if (spec.multiple) {
      flags[name] = [...((flags[name] as string[] | undefined) ?? []), value];
    } else {
      flags[name] = value;
    }
  }
  return { ok: true, flags, positionals };
}

/** Help text: usage line, summary, one line per flag. */
export function formatHelp(usage: string, summary: string, specs: FlagSpecs): string {
  const rows = Object.entries(specs).map(([name, s]) => {
    const left = `--${name}${s.type === 'boolean' ? '' : ` ${s.metavar ?? (s.type === 'number' ? 'N' : s.type === 'list' ? 'A,B' : 'VALUE')}`}${s.multiple ? ' …' : ''}`;
    return `  ${left.padEnd(30)} ${s.describe}`;
  });
  return [`usage: ${usage}`, '', summary, '', 'options:', ...rows].join('\n');
}
