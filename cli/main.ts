/**
 * `parley <command> …`: a table of commands, each in its own module under `cli/commands/`, loaded only
 * when called so that `parley agent` starts fast and does not load the orchestrator. Every failure of a
 * command ends here as one line, `parley <cmd>: <what is wrong>` (exit 2 for usage, 1 otherwise), never
 * a stack trace (set PARLEY_DEBUG=1 to see one).
 */
import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import { packagePath } from '../disk/package-root.js';
import { switchEnv } from '../disk/switch-env.js';
import { commandHelp, UsageError, type CommandSpec } from './command.js';
import { describeFailure } from './failure.js';

/** A command module: its body, and the spec(s) its parser uses (for help and the README test). */
export type CommandModule = {
  run(argv: string[]): Promise<number>;
  spec?: CommandSpec;
  /** A command with several forms (`export`, `compare`) lists them all: its --help shows every one. */
  specs?: CommandSpec[];
};

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

/**
 * What a command that finished its work exits with when its stdout reader went away first: 128 + SIGPIPE,
 * what a shell reports for a process a closed pipe killed. `parley export --out - | consumer` with the
 * consumer gone must not look like a complete export.
 */
export const EXIT_OUTPUT_CLOSED = 141;

let stdoutClosed = false;

/**
 * A reader that goes away (`parley show R | head`, a closed terminal) ends the output, not the command:
 * without a listener, the EPIPE on stdout is an uncaught error that kills a run mid-way with a stack trace.
 * The run goes on and records everything (its files are its product); the exit status says the output
 * was cut (EXIT_OUTPUT_CLOSED).
 */
function tolerateClosedOutput(): void {
  for (const stream of [process.stdout, process.stderr]) {
    if (stream.listenerCount('error') > 0) continue;
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
      if (stream === process.stdout) stdoutClosed = true;
    });
  }
}

/**
 * Settings for a process that runs one command and exits (bin/parley.js calls this before main(), not tests
 * that import main): zod checks objects with its interpreter instead of generating a parser (`new Function`)
 * for each object schema at its first use. A command parses a few values of many schemas (a run's settings,
 * a few records, a seat's frames), and generating those parsers cost more than they saved: CPU of one command,
 * interleaved, n = 9: `show` 210 -> 184 ms, `report` 261 -> 236, `export` 230 -> 200, a refused `eval` 239 ->
 * 201, a whole `run` of 8 bot episodes 425 -> 386 (bench/start-up.md). What is parsed by the thousand keeps its
 * generated code: the frames every turn carries and the lines of run files go through `z.compile`
 * (protocol/decode.ts), which this does not change. Same answers either way.
 */
export function oneCommandProcess(): void {
  z.config({ jitless: true });
}

/** Read where an agent pool starts (orchestrator/supervisor/worker-pool.ts); checked up front by main(). */
const WORKER_SWITCHES = ['PARLEY_WORKER_BUNDLE', 'PARLEY_WORKER_SNAPSHOT'];

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
  try {
    // The agent processes' launch switches are read where a pool starts; a bad value is refused here first,
    // as a usage error of whichever command was given (exit 2, before anything is loaded or written).
    for (const v of WORKER_SWITCHES) {
      try {
        switchEnv(v);
      } catch (err) {
        throw new UsageError((err as Error).message);
      }
    }
    const mod = await command.load();
    // A command of several forms: its --help shows each form (each generated from its own flags).
    if (mod.specs && mod.specs.length > 1 && rest.length === 1 && (rest[0] === '--help' || rest[0] === '-h')) {
      console.log(mod.specs.map(commandHelp).join('\n\n'));
      return 0;
    }
    const code = await mod.run(rest);
    return stdoutClosed && code === 0 ? EXIT_OUTPUT_CLOSED : code;
  } catch (err) {
    const failure = describeFailure(err);
    console.error(`parley ${name}: ${failure.message}`);
    if (process.env.PARLEY_DEBUG && err instanceof Error && err.stack) console.error(err.stack);
    return failure.exitCode;
  }
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
