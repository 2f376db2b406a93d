import { commandHelp, UsageError, type Subcommand } from '../command.js';
import { ScenarioError } from '../../scenarios/errors.js';
import { fetchCommand } from '../scenarios/fetch.js';
import { generateCommand } from '../scenarios/generate.js';
import { importCommand } from '../scenarios/import.js';
import { listCommand, showCommand, validateCommand } from '../scenarios/list.js';
import { makeCommand } from '../scenarios/make.js';
import { SCENARIO_SUBCOMMANDS, type ScenarioSubcommand } from './scenario-subcommands.js';

/** Each subcommand of `parley scenarios` (import, inspect, check and generate scenario files): its code. */
const COMMAND_OF: Record<ScenarioSubcommand, () => Subcommand> = {
  fetch: () => fetchCommand,
  import: () => importCommand,
  list: () => listCommand,
  show: () => showCommand,
  validate: () => validateCommand,
  make: () => makeCommand,
  generate: () => generateCommand(),
};

/** `parley scenarios <sub> …`, by name: its line in the usage and its code, in the table's order. */
const SUBCOMMANDS: Record<string, { describe: string; command: () => Subcommand }> = Object.fromEntries(
  (Object.entries(SCENARIO_SUBCOMMANDS) as [ScenarioSubcommand, string][]).map(([name, describe]) => [name, { describe, command: COMMAND_OF[name] }]),
);

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

/** Runs a subcommand, printing data errors (file, line, field) and usage errors the same way everywhere. */
export async function runSubcommand(name: string, sub: Subcommand, argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(commandHelp(sub.spec));
    return 0;
  }
  try {
    return await sub.run(argv);
  } catch (err) {
    if (err instanceof UsageError) {
      // The parser already names the help (cli/command.ts); a subcommand's own usage errors get it here.
      const hint = ` (see parley scenarios ${name} --help)`;
      console.error(`parley scenarios ${name}: ${err.message.endsWith(hint) ? err.message : err.message + hint}`);
      return 2;
    }
    if (err instanceof ScenarioError) {
      console.error(`parley scenarios ${name}: ${err.message} [${err.code}]`);
      return 1;
    }
    throw err;
  }
}
