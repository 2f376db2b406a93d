/**
 * `parley scenarios`' subcommands and their lines in its usage, without their code: `parley --help` lists
 * them without loading the importers and generators (some 900 zod schemas built at load). scenarios.ts
 * gives each its command, keyed by this table's names (a subcommand missing there is a type error).
 */
export const SCENARIO_SUBCOMMANDS = {
  fetch: 'fetch sotopia [--from URL|DIR] [--out FILE]: download, verify and import SOTOPIA',
  import: 'import sotopia DIR | cocoa-craigslist FILE | cocoa-mutualfriends FILE --out FILE',
  list: 'one line per scenario (FILE or builtin), --subset NAME',
  show: 'print the full record(s) of one scenario',
  validate: 'check a scenario file (schema and consistency)',
  make: 'generate MutualFriends / Craigslist scenarios from a seed',
  generate: 'generate new social scenarios with an LLM (SOTOPIA-π style)',
} as const;

export type ScenarioSubcommand = keyof typeof SCENARIO_SUBCOMMANDS;

/** `parley --help`'s line for scenarios, from the subcommands it accepts. */
export const summaryLine = () => `${Object.keys(SCENARIO_SUBCOMMANDS).join(' | ')} scenarios`;
