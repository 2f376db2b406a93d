import { randomInt } from 'node:crypto';

/**
 * Node flags for agent processes that play one seat at a time and not only bots (the LLM seats of a run at
 * one seat a process; bot-only pools have BOT_PROCESS_NODE_FLAGS, multiplexed pools Node's defaults).
 *
 * `--predictable` keeps V8 from treating such a process as idle. One seat allocates ~0.4 MB a second (a turn,
 * then 200 ms to seconds waiting for the model and the partner), below the 1 MB/s at which V8 calls its
 * allocation rate low. It then shrinks and uncommits the young generation at every scavenge (each 1 MB
 * the process allocates next comes back as 256 fresh pages, a fault each: 9 faults a write call at one
 * seat against 2-6 at ten), and its memory reducer runs full collections on the idle-looking process
 * (20 in 18 processes of a 25-episode run). The flag turns both off; it also makes the collector
 * single-threaded (no helper threads woken on 2 cores shared by ~100 processes) and drops compile tasks that
 * model seats do not use (TurboFan is off for them: agent-node/v8-tiering.ts).
 *
 * On the command line because V8 reads these at heap set-up: set from inside a running process (as the
 * tiering flags are) it aborts at the next full collection (the collector's concurrent marking was set up).
 * The pool's snapshot is built with it (a blob loads only under its build flags: worker-snapshot.ts).
 * Measured: bench/agent-profile.md, eleventh pass.
 */
export const ONE_SEAT_PROCESS_NODE_FLAGS: readonly string[] = ['--predictable'];

/**
 * `--predictable` also seeds V8's random number generator with a constant when no seed is given: every process
 * would draw the same `Math.random()` sequence and hash strings with the same seed (a known seed lets crafted
 * keys, say in a model's JSON reply, collide on purpose). Each process gets a seed of its own, drawn from the OS's
 * random source (unless PARLEY_WORKER_NODE_ARGS gives one); a blob loads whatever the seed (V8 leaves it out of a
 * snapshot's flag check). The seed is on the process's command line, which other users of the machine can read
 * (/proc/PID/cmdline): like a process's memory, it is for a machine whose users are trusted with the run.
 */
export function perProcessSeed(execArgv: readonly string[], draw: () => number = () => randomInt(1, 2 ** 31 - 1)): string[] {
  if (!predictable(execArgv) || execArgv.some((a) => a.startsWith('--random-seed') || a.startsWith('--random_seed'))) return [];
  return [`--random-seed=${draw()}`];
}

/**
 * Whether V8 ends up predictable: the last of `--predictable` and `--no-predictable` wins (a user's
 * PARLEY_WORKER_NODE_ARGS come after the pool's flags). Without it V8 draws its own seed from the OS, and a
 * seed given here would only make the process's draws readable in its command line.
 */
function predictable(execArgv: readonly string[]): boolean {
  const on = execArgv.lastIndexOf('--predictable');
  return on >= 0 && on > Math.max(execArgv.lastIndexOf('--no-predictable'), execArgv.lastIndexOf('--no_predictable'));
}
