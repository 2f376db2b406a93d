import { resolve } from 'node:path';
import { runExperiment } from '../run-experiment.js';
import type { FlagSpecs } from '../args.js';
import { commandRun, UsageError, type CommandSpec } from '../command.js';
import { TokensFile } from '../tokens-file.js';
import { freshRunDir } from '../fresh-run-dir.js';
import { allowOrigins } from '../allow-origin.js';
import { terminalSafe } from '../../text/terminal.js';
import { buildRunConfig } from '../plan/run-config.js';
import { serveScorer } from '../serve-judge.js';
import { CONFIG_FLAGS, exitWithLauncher, GROUP_SEAT_NUMBERS, groupSeatFlags, HUMAN_FLAGS, humanDeadline, interruptSignal, keyPreflight, reportRun, WATCH_FLAG } from './run.js';

const SERVE_FLAGS: FlagSpecs = {
  port: { type: 'number', describe: 'port to listen on (0: any free port; default 0)' },
  host: { type: 'string', metavar: 'ADDR', describe: 'address to listen on (default 127.0.0.1; 0.0.0.0 for other machines)' },
  ...CONFIG_FLAGS,
  agent1: { type: 'string', metavar: 'SPEC', describe: 'host the first seat here with this policy (bot, openai:<model>, …); unset seats stay open for people' },
  agent2: { type: 'string', metavar: 'SPEC', describe: 'host the second seat here with this policy; unset seats stay open for people' },
  ...groupSeatFlags(true),
  ...HUMAN_FLAGS,
  ...WATCH_FLAG,
  judge: { type: 'string', metavar: 'SPEC', describe: "judge each episode as it ends (the request parley eval sends), store its scores on the record and send each seat its own in episode.end, e.g. openai:gpt-4" },
  'tokens-file': { type: 'string', metavar: 'FILE', describe: 'write the seat token lines to FILE (mode 0600) instead of standard output' },
  'trust-remote-usage': { type: 'boolean', describe: "count the token usage remote agents report in the run's cost estimate" },
  'token-ttl-ms': { type: 'number', metavar: 'MS', describe: 'how long a seat token waits for its agent (default 1800000)' },
};

/** `parley serve`'s command line. */
export const spec: CommandSpec = {
  name: 'serve',
  usage: 'parley serve [--port P] [--out DIR] [options]',
  summary: `Open the seats of the selected episodes for remote agents. Prints the agent URL, then for each
episode a line \`episode <id> scenario <id> mode <mode>\` followed by one line per seat:
  seat <seat-id> token <token> url http://HOST:PORT/?token=<token>
An agent process joins with the token; a person opens the url in a browser. With --agent1/--agent2/--agentK
those seats are played here (local agent processes) and only the others are printed (as people's seats).
With --tokens-file FILE those seat lines go to FILE (owner-only) instead. Start
\`grep '^seat <seat-id> ' FILE | parley agent --url <url> --token-file - --policy <spec>\` once per seat. Each episode starts
when all its seats joined; serve writes the records and exits 0 when every episode is done.
With --judge SPEC each episode is judged as it ends (the request \`parley eval DIR --judge SPEC\` sends),
its scores stored on the record, and each seat's own scores sent in its episode.end (the end reward of
clients/python). Every seat is told its task verdict there too, where the task has one.`,
  flags: SERVE_FLAGS,
};

/** `parley serve`: reserve seats, print their tokens, wait for remote agents, record the episodes. */
export const run = commandRun(spec, async (args) => {
  // --agent1/--agent2/--agentK: those seats are hosted here, the others are left to people (`human`).
  const hosts = ['agent1', 'agent2', ...GROUP_SEAT_NUMBERS.map((k) => `agent${k}`)].some((f) => typeof args.flags[f] === 'string');
  // Without --out (or an experiment file's `out`), each serve writes a fresh runs/serve-<time>.
  const out = typeof args.flags.out === 'string' ? {} : { out: freshRunDir('serve') };
  const built = buildRunConfig(args.flags, hosts ? { modes: ['agents'], agents: [{ spec: 'human' }, { spec: 'human' }], ...out } : { modes: ['agents'], ...out });
  if (!built.ok) throw new UsageError(built.message);
  // Seats played here call their providers from this machine: a missing key is one line now, not a failed episode each.
  const keys = hosts ? keyPreflight(built.config) : null;
  if (keys) throw new UsageError(keys);
  // --judge: checked and its endpoint reached before any seat opens.
  const scorer = await serveScorer(built.config);
  const port = (args.flags.port as number | undefined) ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be an integer in 0..65535, got ${port}`);
  const ttl = args.flags['token-ttl-ms'] as number | undefined;
  if (ttl !== undefined && (!Number.isInteger(ttl) || ttl <= 0)) throw new UsageError('--token-ttl-ms must be a positive integer');
  const tokensPath = args.flags['tokens-file'] as string | undefined;
  let tokensFile: TokensFile | null = null;
  if (tokensPath !== undefined) {
    try {
      tokensFile = new TokensFile(resolve(tokensPath));
    } catch (err) {
      throw new UsageError(`cannot write --tokens-file ${tokensPath}: ${(err as Error).message}`);
    }
  }
  const human = humanDeadline(args.flags);
  if (!human.ok) throw new UsageError(human.message);
  const log = (l: string) => console.log(l);
  let httpBase = '';
  const interrupt = interruptSignal(log);
  const unwatch = exitWithLauncher();
  try {
    const result = await runExperiment(built.config, {
      log,
      hosting: hosts ? 'local' : 'remote',
      ...(human.ms !== undefined ? { humanDeadlineMs: human.ms } : {}),
      port,
      host: (args.flags.host as string | undefined) ?? '127.0.0.1',
      ...(ttl !== undefined ? { tokenTtlMs: ttl } : {}),
      trustRemoteUsage: args.flags['trust-remote-usage'] === true,
      allowOrigins: allowOrigins(args.flags),
      signal: interrupt.signal,
      extend: args.flags.extend === true,
      watch: args.flags.watch === true,
      ...(scorer ? { scorer } : {}),
      onListening: (url, httpUrl) => {
        httpBase = httpUrl;
        log(`listening ${url} (run directory ${resolve(built.config.out)}); people: ${httpUrl}/?token=<token>`);
      },
      onSeats: (episode, seats) => {
        // Scenario ids and codenames come from a file: one line each, whatever they hold (x01).
        log(`episode ${episode.plan.episodeId} scenario ${terminalSafe(episode.plan.scenario.id)} mode ${episode.plan.mode}${episode.plan.scenario.codename ? ` (${terminalSafe(episode.plan.scenario.codename)})` : ''}`);
        // Only the seats left open: a seat played here keeps its token to itself.
        const open = new Map(seats.map((s) => [s, episode.tokens.get(s)!]));
        if (tokensFile) {
          tokensFile.write(open);
          log(`tokens for ${seats.join(', ')} written to ${tokensFile.path}`);
        } else {
          for (const [seat, token] of open) log(`seat ${seat} token ${token} url ${httpBase}/?token=${token}`);
        }
      },
    });
    if (interrupt.signal.aborted) return 130;
    reportRun(result, log);
    // Done means every planned episode has its record, failed ones included: what remote clients did
    // (abuse, drops, refusals) is on the records, it does not make serve itself fail.
    return 0;
  } finally {
    unwatch();
    interrupt.dispose();
  }
});
