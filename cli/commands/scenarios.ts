import { runSubcommand, type Subcommand } from '../scenarios/common.js';
import { fetchCommand } from '../scenarios/fetch.js';
import { generateCommand } from '../scenarios/generate.js';
import { importCommand } from '../scenarios/import.js';
import { listCommand, showCommand, validateCommand } from '../scenarios/list.js';
import { makeCommand } from '../scenarios/make.js';

/** `parley scenarios <sub> …`: import, inspect, check and generate scenario files. */
const SUBCOMMANDS: Record<string, { describe: string; command: () => Subcommand }> = {
  fetch: { describe: 'fetch sotopia [--from URL|DIR] [--out FILE]: download, verify and import SOTOPIA', command: () => fetchCommand },
  import: { describe: 'import sotopia DIR | cocoa-craigslist FILE | cocoa-mutualfriends FILE --out FILE', command: () => importCommand },
  list: { describe: 'one line per scenario (FILE or builtin), --subset NAME', command: () => listCommand },
  show: { describe: 'print the full record(s) of one scenario', command: () => showCommand },
  validate: { describe: 'check a scenario file (schema and consistency)', command: () => validateCommand },
  make: { describe: 'generate MutualFriends / Craigslist scenarios from a seed', command: () => makeCommand },
  generate: { describe: 'generate new social scenarios with an LLM (SOTOPIA-π style)', command: () => generateCommand() },
};

function usage(): string {
  const rows = Object.entries(SUBCOMMANDS).map(([name, s]) => `  ${name.padEnd(9)} ${s.describe}`);
  return ['usage: parley scenarios <subcommand> [options]', '', 'subcommands:', ...rows, '', 'parley scenarios <subcommand> --help for its options'].join('\n');
}

/** Each subcommand's help and options, by name (the README test holds command lines against them). */
export function subcommands(): Record<string, Subcommand> {
  return Object.fromEntries(Object.entries(SUBCOMMANDS).map(([name, s]) => [name, s.command()]));
}

/** Entry of `parley scenarios`. */
export async function run(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(usage());
    return name ? 0 : 2;
  }
  const sub = SUBCOMMANDS[name];
  if (!sub) {
    const what = name.startsWith('-') ? `unknown flag ${name}` : `unknown subcommand '${name}'`;
    console.error(`parley scenarios: ${what} (expected ${Object.keys(SUBCOMMANDS).join(', ')}; see parley scenarios --help)`);
    return 2;
  }
  return runSubcommand(name, sub.command(), rest);
}
