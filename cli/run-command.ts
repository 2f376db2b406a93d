/**
 * One command run as every `parley` command runs: its module loaded, its answer an exit code, every failure one
 * line `parley <cmd>: <what is wrong>` (exit 2 for usage, 1 otherwise), never a stack trace (PARLEY_DEBUG=1
 * shows one). Shared by the whole CLI (cli/main.ts) and the bundle of the light commands (cli/light-main.ts).
 */
import * as z from 'zod';
import { switchEnv } from '../disk/switch-env.js';
import { workerNiceness } from '../orchestrator/supervisor/worker-niceness.js';
import { checkWorkerNodeArgs } from '../orchestrator/supervisor/worker-node-args.js';
import { rateWindowSeconds, sharedLimitUrl } from '../llm/shared-limit.js';
import { connectionLimits } from '../orchestrator/net/connection-cap.js';
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
export function tolerateClosedOutput(): void {
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

/** Read where an agent pool starts (orchestrator/supervisor/worker-pool.ts), as PARLEY_WORKER_NICE is; checked up front by main(). */
const WORKER_SWITCHES = ['PARLEY_WORKER_BUNDLE', 'PARLEY_WORKER_SNAPSHOT'];

/**
 * Runs command `name` (its module from `load`) on `rest`, the arguments after its name.
 * @returns the exit code
 */
export async function runCommand(name: string, rest: string[], load: () => Promise<CommandModule>): Promise<number> {
  tolerateClosedOutput();
  try {
    // The agent processes' launch switches are read where a pool starts, and the HTTP server's connection
    // caps where a server starts (after a run has made its directory); a bad value is refused here first, as
    // a usage error of whichever command was given (exit 2, before anything is loaded or written).
    try {
      for (const v of WORKER_SWITCHES) switchEnv(v);
      workerNiceness();
      checkWorkerNodeArgs();
      connectionLimits();
      rateWindowSeconds();
      sharedLimitUrl();
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    const mod = await load();
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
