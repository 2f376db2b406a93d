/**
 * The commands that read a run and write a file or a page, as a CLI bundle of their own (bin/cli-bundle.mjs
 * builds it beside the whole CLI's; bin/parley.js runs it for these names, LIGHT_COMMANDS there). Why: a
 * command's process reads, compiles and runs the top level of the bundle it starts from, and the whole CLI's
 * is ~4 MB (the orchestrator, the LLM clients, the web server) that `show` or `report` never call: ~0.3-0.5 MB
 * for these. Everything else about a command is cli/main.ts's (runCommand); `--help`, `--version` and other
 * names go to the whole CLI.
 */
import { runCommand, type CommandModule } from './run-command.js';

export { oneCommandProcess } from './run-command.js';

/** The commands of this bundle, by name (a subset of cli/main.ts COMMANDS, the same modules). */
export const COMMANDS: Record<string, { load: () => Promise<CommandModule> }> = {
  show: { load: () => import('./commands/show.js') },
  report: { load: () => import('./commands/report.js') },
  pack: { load: () => import('./commands/pack.js') },
  verify: { load: () => import('./commands/verify.js') },
};

/** `parley <name> …` for a name of COMMANDS (bin/parley.js sends no other here). */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const command = name === undefined ? undefined : COMMANDS[name];
  if (!command) throw new Error(`parley: '${name}' is not a command of the light bundle`);
  return runCommand(name!, rest, command.load);
}
