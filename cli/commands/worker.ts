import type { FlagSpecs } from '../args.js';
import { workerTiming } from '../../queue/worker-timing.js';
import { connectQueue } from '../queue-connect.js';
import { MULTIPLEX_SEATS_PER_PROCESS } from '../multiplex-seats.js';
import { commandRun, positiveInt, UsageError, type CommandSpec } from '../command.js';

const FLAGS: FlagSpecs = {
  queue: { type: 'string', metavar: 'redis://HOST:PORT', describe: 'the Redis the coordinator (parley run --queue) enqueued on' },
  concurrency: { type: 'number', describe: 'episodes this worker runs at once (default 4)' },
  multiplex: { type: 'boolean', describe: 'let one agent process host seats of different episodes at once (never two of one episode)' },
  'seats-per-process': { type: 'number', metavar: 'N', describe: `with --multiplex: seats in play one agent process may host at once; a seat whose episode is recorded no longer counts (default ${MULTIPLEX_SEATS_PER_PROCESS})` },
  'allow-endpoint': {
    type: 'string',
    multiple: true,
    metavar: 'URL',
    describe: 'a provider base URL a job may name (repeatable; default none: jobs use this machine\'s OPENAI_BASE_URL / MISTRAL_BASE_URL)',
  },
  'allow-key-env': {
    type: 'string',
    multiple: true,
    metavar: 'NAME',
    describe: 'an environment variable a job may name as its key variable (repeatable; default none: OPENAI_API_KEY / MISTRAL_API_KEY)',
  },
};

/** `parley worker`'s command line. */
export const spec: CommandSpec = {
  name: 'worker',
  usage: 'parley worker --queue redis://[user:pass@]HOST:PORT[/db] [options]',
  summary: `Take episode jobs from the queue and run them on this machine's agent processes; the coordinator
writes the results into its run directory. Needs only the code, the queue URL and the provider keys
(scenarios and configuration come from the queue). SIGTERM or Ctrl-C: finish the episodes in hand for up
to 5 s (PARLEY_WORKER_STOP_MS) and stop, within 10 s whatever state Redis is in; a second one: stop now.
Episodes not finished go back to the queue and run elsewhere from the start. Jobs are checked: a job may
name a base URL or key variable only if --allow-endpoint / --allow-key-env allow it.`,
  flags: FLAGS,
};

/** `parley worker`. */
export const run = commandRun(spec, async (args) => {
  if (typeof args.flags.queue !== 'string') throw new UsageError('--queue redis://HOST:PORT is required');
  const concurrency = positiveInt(args.flags, 'concurrency', 4);
  const seats = positiveInt(args.flags, 'seats-per-process', args.flags.multiplex ? MULTIPLEX_SEATS_PER_PROCESS : 1);
  if (args.flags['seats-per-process'] !== undefined && !args.flags.multiplex) throw new UsageError('--seats-per-process needs --multiplex');
  const { normaliseEndpoint } = await import('../../queue/job-guard.js');
  const endpoints = listFlag(args.flags['allow-endpoint']).map((raw) => {
    const url = normaliseEndpoint(raw);
    if (url === null) throw new UsageError(`--allow-endpoint: '${raw}' is not an http(s) URL without credentials, query or fragment`);
    return url;
  });
  const keyEnvs = listFlag(args.flags['allow-key-env']);
  for (const name of keyEnvs) if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new UsageError(`--allow-key-env: '${name}' is not an environment variable name`);
  // Read again where the worker starts; a bad value is refused here, before Redis is dialled.
  try {
    workerTiming();
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const url = await connectQueue('worker', args.flags.queue);
  if (!url) return 1;
  const { startQueueWorker } = await import('../../queue/worker.js');
  const log = (l: string) => console.log(l);
  const worker = await startQueueWorker({ url: url.url, concurrency, seatsPerProcess: seats, log, trust: { endpoints, keyEnvs } });
  log(`parley worker ${process.pid} on ${url.shown}: up to ${concurrency} episode(s) at a time`);
  let signals = 0;
  const onSignal = () => {
    signals += 1;
    if (signals === 1) {
      log('stopping: finishing the episodes in hand for a few seconds (signal again to stop now)');
      // The promise to whoever sent the signal: gone within 10 s, even if a Redis client or an agent
      // process will not let go (the stop deadline in startQueueWorker normally ends it sooner).
      setTimeout(() => {
        console.error('parley worker: still not stopped after 9.5 s; exiting (unfinished episodes run elsewhere later)');
        process.exit(1);
      }, 9_500).unref();
    }
    else log('stopping now: the episodes in hand go back to the queue');
    void worker.stop(signals > 1);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  await worker.done;
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  log('worker stopped');
  // Stopped: the Redis clients BullMQ leaves reconnecting (Redis may be gone) must not keep the process up.
  if (signals > 0) setImmediate(() => process.exit(0));
  return 0;
});

/** A repeatable flag's values (absent: none). */
function listFlag(v: unknown): string[] {
  return Array.isArray(v) ? v.map(String) : typeof v === 'string' ? [v] : [];
}
