/**
 * `parley <command> …`: a table of commands, each in its own module under `cli/commands/`, loaded only
 * when called so that `parley agent` starts fast and does not load the orchestrator. Every failure of a
 * command ends here as one line, `parley <cmd>: <what is wrong>` (exit 2 for usage, 1 otherwise), never
 * a stack trace (set PARLEY_DEBUG=1 to see one).
 */
import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { packagePath } from '../disk/package-root.js';
import { describeFailure } from './failure.js';
import { runCommand, tolerateClosedOutput, type CommandModule } from './run-command.js';

export { EXIT_OUTPUT_CLOSED, oneCommandProcess, type CommandModule } from './run-command.js';

/**
 * Every command, by name. `summary`: the small module that generates its line in `parley --help` from what
 * it accepts (subcommands, formats), so that the list cannot fall behind and --help loads no command's code.
 */
export const COMMANDS: Record<string, { describe: string; load: () => Promise<CommandModule>; summary?: () => Promise<{ summaryLine(): string }> }> = {
  demo: { describe: 'offline demo: built-in scenarios, all three modes, bots', load: () => import('./commands/demo.js') },
  run: { describe: 'run episodes and write a run directory', load: () => import('./commands/run.js') },
  fork: { describe: 'what if: replay a recorded episode up to turn T, then play on with other policies or knowledge', load: () => import('./commands/fork.js') },
  probe: { describe: "ask a seat what it believes at a turn, off the record, from its exact prompt then (the run is only read)", load: () => import('./commands/probe.js') },
  serve: { describe: 'open seats for remote agents and run their episodes', load: () => import('./commands/serve.js') },
  worker: { describe: 'take episodes from a Redis queue (parley run --queue) and run them here', load: () => import('./commands/worker.js') },
  agent: { describe: 'play one seat: connect to an orchestrator with a token', load: () => import('./commands/agent.js') },
  watch: { describe: 'serve the watch page of a finished run', load: () => import('./commands/watch.js') },
  show: { describe: 'print episodes of a run as transcripts (or what one seat received)', load: () => import('./commands/show.js') },
  scenarios: { describe: 'scenario files', load: () => import('./commands/scenarios.js'), summary: () => import('./commands/scenario-subcommands.js') },
  eval: { describe: 're-evaluate a finished run with a judge', load: () => import('./commands/eval.js') },
  report: { describe: 'write report.md / report.html with charts and transcripts for runs', load: () => import('./commands/report.js') },
  compare: { describe: 'pairwise naturalness judgement between two runs', load: () => import('./commands/compare.js') },
  study: { describe: 'serve a study with recruited participants: consent, waiting room, pairing, AI fallback, survey, completion code', load: () => import('./commands/study.js') },
  annotate: { describe: 'serve the human pairwise naturalness study of two runs to annotators', load: () => import('./commands/annotate.js') },
  multiverse: { describe: 'does a claim survive its reasonable alternatives: every specification of a claim file, its curve and a verdict', load: () => import('./commands/multiverse.js') },
  pack: { describe: "pack a run for a paper's supplement: files, report, card, inputs and a SHA-256 manifest in one .tar.gz", load: () => import('./commands/pack.js') },
  verify: { describe: 'check a pack made by parley pack against its manifest', load: () => import('./commands/verify.js') },
  export: { describe: 'export a run', load: () => import('./commands/export.js'), summary: () => import('./commands/export-formats.js') },
  pairs: { describe: 'preference pairs (DPO) from forked episodes: same prompt at the fork turn, better and worse move by judge score', load: () => import('./commands/pairs.js') },
  finetune: { describe: 'submit a fine-tuning job | status of one (openai, mistral)', load: () => import('./commands/finetune.js') },
};

/** The version in package.json. */
export function version(): string {
  const pkg = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/**
 * `parley --help`: one line per command; a command whose line depends on what it accepts (the
 * subcommands of scenarios, the formats of export) generates it, so the list cannot fall behind.
 */
export async function usage(): Promise<string> {
  const rows: string[] = [];
  for (const [name, c] of Object.entries(COMMANDS)) {
    const line = c.summary ? (await c.summary()).summaryLine() : c.describe;
    rows.push(`  ${name.padEnd(10)} ${line}`);
  }
  return ['usage: parley <command> [options]', '', 'commands:', ...rows, '', 'parley <command> --help for its options; parley --version'].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  tolerateClosedOutput();
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(await usage());
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    console.log(`parley ${version()}`);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    console.error(`parley: unknown command '${name}' (see parley --help)`);
    return 2;
  }
  return runCommand(name, rest, command.load);
}

/**
 * Whether this file is the program (`tsx cli/main.ts …`) rather than an import: compared as
 * real paths, so a checkout reached through a symlink, or a path with spaces, still runs.
 */
function isEntry(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

// `tsx cli/main.ts …` runs this file directly.
if (isEntry()) {
  main(process.argv.slice(2)).then(
    (code) => { process.exitCode = code; },
    (err) => { console.error(`parley: ${describeFailure(err).message}`); process.exitCode = 1; },
  );
}
