import { serveFinishedRun } from '../../orchestrator/watch/finished-run.js';
import type { FlagSpecs } from '../args.js';
import { commandRun, UsageError, type CommandSpec } from '../command.js';
import { interruptSignal } from './run.js';

const WATCH_FLAGS: FlagSpecs = {
  'watch-port': { type: 'number', metavar: 'N', describe: 'port to listen on (default: any free port)' },
  host: { type: 'string', metavar: 'ADDR', describe: 'address to listen on (default 127.0.0.1)' },
};

/** `parley watch`'s command line. */
export const spec: CommandSpec = {
  name: 'watch',
  usage: 'parley watch RUN_DIR [--watch-port N]',
  summary: `Serves a run's watch page (the page \`run --watch\` serves live) for a finished or stopped run and prints
\`watch url http://HOST:PORT/watch?key=K\` (the key is its only way in): every episode as it ended, the
run's summary, and each episode's turns and seats' ledgers read from RUN_DIR. Ctrl-C stops.`,
  flags: WATCH_FLAGS,
  positionals: { min: 1, max: 1, names: 'one run directory' },
};

/** `parley watch RUN_DIR`. */
export const run = commandRun(spec, async (args) => {
  const port = args.flags['watch-port'];
  if (port !== undefined && (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65535)) throw new UsageError(`--watch-port must be an integer in 0..65535 (got ${String(port)})`);
  const log = (l: string) => console.log(l);
  const interrupt = interruptSignal(() => {});
  try {
    const { episodes } = await serveFinishedRun(args.positionals[0]!, {
      ...(port !== undefined ? { port } : {}),
      ...(typeof args.flags.host === 'string' ? { host: args.flags.host } : {}),
      signal: interrupt.signal,
      log: (l) => console.error(`parley watch: ${l}`),
      onUrl: (url) => log(`watch url ${url}`),
    });
    log(`stopped watching (${episodes} episode(s))`);
    return 0;
  } finally {
    interrupt.dispose();
  }
});
