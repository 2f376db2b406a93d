import { resolve } from 'node:path';
import { runExperiment } from '../../orchestrator/run/driver.js';
import type { FlagSpecs } from '../args.js';
import { parseCommand, UsageError, type CommandSpec } from '../command.js';
import { buildRunConfig, CONFIG_FLAGS, exitWithLauncher, interruptSignal, reportRun } from './run.js';

const SERVE_FLAGS: FlagSpecs = {
  port: { type: 'number', describe: 'port to listen on (0: any free port; default 0)' },
  host: { type: 'string', metavar: 'ADDR', describe: 'address to listen on (default 127.0.0.1; 0.0.0.0 for other machines)' },
  ...CONFIG_FLAGS,
  'token-ttl-ms': { type: 'number', metavar: 'MS', describe: 'how long a seat token waits for its agent (default 1800000)' },
};

/** `parley serve`'s command line. */
export const spec: CommandSpec = {
  name: 'serve',
  usage: 'parley serve --port P --out DIR [options]',
  summary:
    'Open the seats of the selected episodes for remote agents. Prints the agent URL, then for each\n' +
    'episode a line `episode <id> scenario <id> mode <mode>` followed by one line per seat:\n' +
    '  seat <seat-id> token <token>\n' +
    'Start `parley agent --url <url> --token <token> --policy <spec>` once per seat. Each episode starts\n' +
    'when all its seats joined; serve writes the records and exits 0 when every episode is done.',
  flags: SERVE_FLAGS,
};

/** `parley serve`: reserve seats, print their tokens, wait for remote agents, record the episodes. */
export async function run(argv: string[]): Promise<number> {
  const args = parseCommand(spec, argv);
  if (!args) return 0;
  const built = buildRunConfig(args.flags, { modes: ['agents'] });
  if (!built.ok) throw new UsageError(built.message);
  const port = (args.flags.port as number | undefined) ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be an integer in 0..65535, got ${port}`);
  const ttl = args.flags['token-ttl-ms'] as number | undefined;
  if (ttl !== undefined && (!Number.isInteger(ttl) || ttl <= 0)) throw new UsageError('--token-ttl-ms must be a positive integer');
  const log = (l: string) => console.log(l);
  const interrupt = interruptSignal(log);
  const unwatch = exitWithLauncher();
  try {
    const result = await runExperiment(built.config, {
      log,
      hosting: 'remote',
      port,
      host: (args.flags.host as string | undefined) ?? '127.0.0.1',
      ...(ttl !== undefined ? { tokenTtlMs: ttl } : {}),
      signal: interrupt.signal,
      extend: args.flags.extend === true,
      onListening: (url) => log(`listening ${url} (run directory ${resolve(built.config.out)})`),
      onSeats: (episode) => {
        log(`episode ${episode.plan.episodeId} scenario ${episode.plan.scenario.id} mode ${episode.plan.mode}${episode.plan.scenario.codename ? ` (${episode.plan.scenario.codename})` : ''}`);
        for (const [seat, token] of episode.tokens) log(`seat ${seat} token ${token}`);
      },
    });
    if (interrupt.signal.aborted) return 130;
    return reportRun(result, log);
  } finally {
    unwatch();
    interrupt.dispose();
  }
}
