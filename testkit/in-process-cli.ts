/**
 * `parley <argv>` run inside the calling (test) process, for tests that check what a command prints or writes
 * rather than how its process behaves (DESIGN.md: commands in cli/ parse, call one domain function and print).
 * A `parley` process costs ~0.19 CPU-s to start plus a cold load of the CLI bundle; in-process, a test file's
 * worker loads the CLI's modules once and every later command reuses them.
 *
 * The command sees what a child would: the given environment (whole, as spawn's `env`) and working directory,
 * stdout/stderr that are not terminals, and its output collected into lines, as testkit/processes.ts's
 * CliProcess collects a child's. Everything is put back when it returns: environment, working directory,
 * console, the two streams, and any listener the command left on `process` or its streams (signal handlers,
 * EPIPE handlers). Commands whose behaviour is their process (servers that run until a signal, `--queue`)
 * are refused, and a `process.exit` from the command fails the call instead of ending the test worker.
 * Console, environment and working directory are global, so calls run one at a time.
 *
 * What it cannot see: the stderr of the processes a command starts (a run's agent processes inherit the
 * stderr of whoever started them: here the test worker's). A test that reads what a run's seats print, or
 * that a run printed nothing at all, keeps a process.
 *
 * Nor whether the command's process would end: bin/parley.js sets the exit code and lets the event loop
 * drain, so a command that leaves a timer, server or socket open hangs as a process and still passes here
 * (review, 2026-11-29: a setInterval added to `show` left test/show-cli green). The tests that run commands
 * through bin/parley.js and wait for their exit check that: every command switched to this runner also runs
 * as a process in the README test (test/readme/: every README.md and docs/ block) or in its own interrupt or
 * kill test. Tracking handles here (async_hooks) would count this process's own servers' sockets (the fake
 * LLM server answers a run's agents from the test process) and slow every promise the command makes.
 */
import { resolve } from 'node:path';
import { format } from 'node:util';
import { REPO } from './processes.js';

/** What a command printed, line by line (as CliProcess collects a child's), and its exit code. */
export interface InProcessResult {
  code: number;
  stdout: string[];
  stderr: string[];
}

export interface InProcessOptions {
  /** The command's whole environment (as spawn's `env`); the caller's when absent. */
  env?: NodeJS.ProcessEnv;
  /** Its working directory: the repository root when absent (as CliProcess). */
  cwd?: string;
}

/**
 * A CLI entry: the CLI's `main` (from its bundle, else cli/main.ts), handed in by test/helpers/in-process-parley.ts
 * (testkit/ depends on nothing of the product: test/boundaries), or a stand-in for the runner's own tests.
 */
export type CliEntry = (argv: string[]) => Promise<number>;

/**
 * Commands that are their process: they serve until a signal (serve, watch, study, annotate), take work from a
 * queue until stopped (worker), or are one seat's process (agent). A test of those keeps a real process.
 */
const PROCESS_COMMANDS = new Set(['serve', 'worker', 'agent', 'watch', 'study', 'annotate']);

/** Flags that hand the work to other processes and wait for them (a Redis queue and its workers). */
const PROCESS_FLAGS = ['--queue'];

/** Why `argv` cannot run in-process, or null when it can. */
export function refusal(argv: string[]): string | null {
  const [name] = argv;
  if (name && PROCESS_COMMANDS.has(name)) return `'parley ${name}' runs until a signal or is a process of its own: test it through bin/parley.js (testkit/processes.ts)`;
  const flag = argv.find((a) => PROCESS_FLAGS.includes(a) || PROCESS_FLAGS.some((f) => a.startsWith(`${f}=`)));
  if (flag) return `'${flag.split('=')[0]}' hands the run to other processes: test it through bin/parley.js (testkit/processes.ts)`;
  return null;
}

/** The one call in flight: the next waits for it (console, env and cwd are the process's). */
let queue: Promise<unknown> = Promise.resolve();

/** `entry(argv)` with the command's environment, cwd and captured output (see the file's comment), one call at a time. */
export function runInProcess(argv: string[], opts: InProcessOptions, entry: CliEntry): Promise<InProcessResult> {
  const why = refusal(argv);
  if (why) return Promise.reject(new Error(`in-process parley: ${why}`));
  const call = queue.then(() => runAlone(argv, opts, entry));
  queue = call.catch(() => {});
  return call;
}

/** Raised in place of process.exit while a command runs: the test worker must not end. */
class ExitCalled extends Error {
  constructor(readonly exitCode: number | string | null | undefined) {
    super(`in-process parley: the command called process.exit(${exitCode ?? ''}): its behaviour is its process; test it through bin/parley.js (testkit/processes.ts)`);
  }
}

const CONSOLE_OUT = ['log', 'info', 'debug', 'dir', 'table'] as const;
const CONSOLE_ERR = ['error', 'warn', 'trace'] as const;
/** Events whose listeners a command may add to `process` (signals, exit hooks) and must not leave behind. */
const PROCESS_EVENTS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGPIPE', 'exit', 'beforeExit', 'uncaughtException', 'unhandledRejection'] as const;
const STREAM_EVENTS = ['error', 'drain', 'close', 'finish'] as const;

async function runAlone(argv: string[], opts: InProcessOptions, entry: CliEntry): Promise<InProcessResult> {
  const out = new Lines();
  const err = new Lines();
  const restore = [
    swapEnv(opts.env ?? { ...process.env }),
    swapCwd(opts.cwd ?? REPO),
    swapConsole(out, err),
    swapStream(process.stdout, out),
    swapStream(process.stderr, err),
    keepListeners(process, PROCESS_EVENTS),
    keepListeners(process.stdout, STREAM_EVENTS),
    keepListeners(process.stderr, STREAM_EVENTS),
  ];
  let exited: ExitCalled | undefined;
  const exit = process.exit;
  process.exit = ((code?: number | string | null) => {
    exited ??= new ExitCalled(code);
    throw exited;
  }) as typeof process.exit;
  let code: number;
  try {
    code = await entry(argv);
  } catch (e) {
    if (exited) throw exited;
    throw e;
  } finally {
    process.exit = exit;
    // Undo in reverse order: listeners first, then streams, console, cwd and environment.
    for (const undo of restore.reverse()) undo();
  }
  if (exited) throw exited;
  return { code, stdout: out.done(), stderr: err.done() };
}

/** Text written to one stream, cut into lines as CliProcess cuts a child's (a last unterminated line kept). */
class Lines {
  private text = '';
  write(chunk: unknown, encoding?: unknown): void {
    this.text += typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString(typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  }
  done(): string[] {
    const lines = this.text.split('\n');
    if (lines.at(-1) === '') lines.pop();
    return lines;
  }
}

/** Sets process.env to exactly `env`; returns its undo. */
function swapEnv(env: NodeJS.ProcessEnv): () => void {
  const saved = { ...process.env };
  const setAll = (to: NodeJS.ProcessEnv) => {
    for (const k of Object.keys(process.env)) if (!(k in to)) delete process.env[k];
    for (const [k, v] of Object.entries(to)) if (v !== undefined && process.env[k] !== v) process.env[k] = v;
  };
  setAll(env);
  return () => setAll(saved);
}

/** Moves to `dir` (only when elsewhere: worker threads cannot chdir); returns its undo. */
function swapCwd(dir: string): () => void {
  const saved = process.cwd();
  if (resolve(dir) === saved) return () => {};
  process.chdir(dir);
  return () => process.chdir(saved);
}

/** console.* into the two collectors (the test runner's own console is put back after). */
function swapConsole(out: Lines, err: Lines): () => void {
  const c = console as unknown as Record<string, (...a: unknown[]) => void>;
  const saved = Object.fromEntries([...CONSOLE_OUT, ...CONSOLE_ERR].map((m) => [m, c[m]]));
  for (const m of CONSOLE_OUT) c[m] = (...a: unknown[]) => out.write(`${format(...a)}\n`);
  for (const m of CONSOLE_ERR) c[m] = (...a: unknown[]) => err.write(`${format(...a)}\n`);
  return () => Object.assign(c, saved);
}

/** A stream's write into a collector, and the stream seen as no terminal (a child's stdout is a pipe). */
function swapStream(stream: NodeJS.WriteStream, into: Lines): () => void {
  const write = Object.getOwnPropertyDescriptor(stream, 'write');
  const isTTY = Object.getOwnPropertyDescriptor(stream, 'isTTY');
  stream.write = ((chunk: unknown, encoding?: unknown, cb?: unknown) => {
    into.write(chunk, encoding);
    const done = typeof encoding === 'function' ? encoding : cb;
    if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
    return true;
  }) as typeof stream.write;
  Object.defineProperty(stream, 'isTTY', { value: false, configurable: true, writable: true });
  return () => {
    if (write) Object.defineProperty(stream, 'write', write);
    else delete (stream as unknown as Record<string, unknown>).write;
    if (isTTY) Object.defineProperty(stream, 'isTTY', isTTY);
    else delete (stream as unknown as Record<string, unknown>).isTTY;
  };
}

/** Removes, when undone, every listener of `events` on `emitter` that was not there before. */
function keepListeners(emitter: NodeJS.EventEmitter, events: readonly string[]): () => void {
  const before = new Map(events.map((e) => [e, new Set(emitter.rawListeners(e))]));
  return () => {
    for (const e of events) {
      for (const l of emitter.rawListeners(e)) if (!before.get(e)!.has(l)) emitter.removeListener(e, l as (...a: unknown[]) => void);
    }
  };
}
