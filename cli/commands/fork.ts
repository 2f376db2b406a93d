import { resolve } from 'node:path';
import { forkSettings } from '../plan/setting-flags.js';
import { SETTINGS } from '../../simulation/index.js';
import { readForkParent, playedTurns } from '../../orchestrator/fork/parent.js';
import { parseReveals } from '../../orchestrator/fork/reveal.js';
import type { RunConfig } from '../../orchestrator/run-config.js';
import { runExperiment } from '../run-experiment.js';
import { resolveProtocol } from '../../orchestrator/run/protocol.js';
import { loadRunInputs } from '../../orchestrator/run/run-inputs.js';
import { terminalSafe } from '../../text/terminal.js';
import type { FlagSpecs } from '../args.js';
import { commandRun, UsageError, type CommandSpec } from '../command.js';
import { parseForkTurns } from '../fork/fork-at.js';
import { buildForkConfig } from '../fork/fork-config.js';
import { consentFromFlags, consentProblem, CONSENT_FLAGS } from '../run-dir-consent.js';
import { CONFIG_FLAGS, exitWithLauncher, interruptSignal, keyPreflight, reportRun, RUN_FLAGS, stdoutTerminal } from './run.js';

/**
 * `parley fork`'s flags: the changes a fork may make, and the prefix-shaping ones it refuses to change.
 * No `--script-writer`: a script is written in one call, so script-mode episodes are not forked.
 */
const FORK_FLAGS: FlagSpecs = {
  at: { type: 'string', metavar: 'T|T1,T2|all', describe: 'fork turn(s): replay the parent\'s turns before T exactly (no LLM call), play on live from T; all = every turn' },
  out: { type: 'string', metavar: 'DIR', describe: 'the fork run directory (rerunning the same command resumes; --extend adds fork turns or repeats)' },
  repeats: { type: 'number', metavar: 'K', describe: 'forks per fork turn (default 1)' },
  agent1: { ...RUN_FLAGS.agent1!, describe: 'policy of the first seat from the fork turn on (default: the parent\'s)' },
  agent2: { ...RUN_FLAGS.agent2!, describe: 'policy of the second seat from the fork turn on (default: the parent\'s)' },
  param: { type: 'string', multiple: true, metavar: 'SEAT.KEY=V', describe: 'a sampling parameter of one seat\'s policy, e.g. agent2.temperature=0.2 (over the parent\'s)' },
  reveal: { type: 'string', multiple: true, metavar: 'FROM.FIELD:TO', describe: 'deliver private fields (goal, secret, hints, task, profile — without the secret; joined with +) of one seat to another at the fork turn, as a logged peer.state frame, e.g. agent2.goal:agent1' },
  'max-turns': { ...CONFIG_FLAGS['max-turns']!, describe: "turn limit of the forks (default: the parent's); the prefix must fit under it" },
  'turn-deadline-ms': { ...CONFIG_FLAGS['turn-deadline-ms']!, describe: "time a seat has for one live move (default: the parent's)" },
  // The simulation settings of the live turns only (simulation/settings.ts, `fork: 'live'`).
  ...Object.fromEntries(forkSettings('live').map((k) => [SETTINGS[k].flag, CONFIG_FLAGS[SETTINGS[k].flag]!])),
  'reformat-model': CONFIG_FLAGS['reformat-model']!,
  judge: RUN_FLAGS.judge!,
  concurrency: RUN_FLAGS.concurrency!,
  replay: { type: 'string', metavar: 'RUNDIR', describe: 'answer the live turns\' LLM calls from the cassettes of a recorded fork run' },
  extend: { ...CONFIG_FLAGS.extend!, describe: 'add fork turns (--at) or repeats to the fork run already in DIR (recorded in run.json history)' },
  'retry-failed': RUN_FLAGS['retry-failed']!,
  ...CONSENT_FLAGS,
  // Settings that shape the replayed prefix: accepted only to be refused with a clear line when they differ.
  scenarios: { ...CONFIG_FLAGS.scenarios!, describe: 'refused unless it is the parent\'s: a fork keeps the scenario of the episode it replays' },
  subset: { ...CONFIG_FLAGS.subset!, describe: 'refused unless it is the parent\'s' },
  modes: { ...CONFIG_FLAGS.modes!, describe: 'refused unless it is the parent episode\'s mode' },
  seed: { ...CONFIG_FLAGS.seed!, describe: 'refused unless it is the parent\'s' },
  // The simulation settings that shape the prefix (simulation/settings.ts, `fork: 'prefix'`).
  ...Object.fromEntries(forkSettings('prefix').map((k) => [SETTINGS[k].flag, { ...CONFIG_FLAGS[SETTINGS[k].flag]!, describe: k === 'protocol' ? 'refused unless it is the parent\'s: the protocol shapes every prompt of the prefix' : 'refused unless it is the parent\'s' }])),
};

/** `parley fork`'s command line. */
export const spec: CommandSpec = {
  name: 'fork',
  usage: 'parley fork RUN EPISODE --at T [changes] [--repeats K] --out DIR',
  summary: `What if: fork a recorded agents or mindreaders episode at turn T. Each fork replays the parent's turns
before T exactly (the same moves and the same frames to every seat, no LLM call), then plays on live
under the changes: another policy for a seat, sampling (--param), later limits (--max-turns, …), and
--reveal, which tells one seat another's private fields at T in a logged peer.state frame. Each record
names its parent run, episode and fork turn; run.json names the parent. --at 2,4,6 or all forks at
several turns; parley report DIR --parent RUN compares the forks with the parent.
Refused with one line, exit status 2 and nothing written: a fork turn past the episode's end, an
unknown episode, a parent without ledgers, or a change that would alter the replayed prefix.
The parent is untrusted input: a base URL, key variable, prompt directory or rubric its run.json gives a
policy is refused unless allowed (--allow-endpoint, --allow-key-env, --allow-path); its files are read
only as regular files (no symlink, FIFO or device) of bounded size.`,
  flags: FORK_FLAGS,
  positionals: { min: 2, max: 2, names: 'RUN EPISODE (a run directory and one of its episode ids, or a part of one only that episode has, as parley show takes)' },
};

/** Every check a fork makes before anything is written; a refusal is a UsageError (one line, exit 2). */
export async function planFork(positionals: readonly string[], flags: Record<string, unknown>): Promise<RunConfig> {
  const [runDir, episodeId] = positionals as [string, string];
  const read = readForkParent(runDir, episodeId);
  if (!read.ok) throw new UsageError(read.message);
  const parent = read.parent;
  if (typeof flags.at !== 'string') throw new UsageError('--at T is required: the turn the fork goes live at (a list 2,4,6 or all for a sweep)');
  const played = playedTurns(parent.record);
  const at = parseForkTurns(flags.at, played, parent.record.episodeId);
  if (!at.ok) throw new UsageError(at.message);
  const revealTexts = (flags.reveal as string[] | undefined) ?? [];
  const reveals = parseReveals(revealTexts, parent.scenario.seats.map((s) => s.seat));
  if (!reveals.ok) throw new UsageError(reveals.message);
  let turns = at.turns;
  const built = buildForkConfig(parent, flags as never, turns, revealTexts);
  if (!built.ok) throw new UsageError(built.message);
  let config = built.config;
  // The parent's run.json is untrusted: an endpoint, key variable or path it names is used only with consent.
  const refused = consentProblem(`${runDir}/run.json`, [
    ...config.agents.map((policy, i) => ({ where: `agent${i + 1}`, policy })),
    { where: 'the script writer', policy: config.scriptWriter },
    { where: 'the judge', policy: config.judge },
  ], consentFromFlags(flags), [{ where: 'the rubric file', path: config.rubric }]);
  if (refused) throw new UsageError(refused);
  // The run's own checks (parent readable, each fork turn replays exactly), made now so a refusal writes nothing.
  const check = async (c: RunConfig) => {
    const inputs = await loadRunInputs(c);
    return inputs.plan(resolveProtocol(c, inputs.scenarios));
  };
  if (flags.at.trim() === 'all') {
    // A sweep keeps the turns that can be continued (the last one may have ended the episode).
    const ok: number[] = [];
    for (const t of turns) if (await check({ ...config, forkAt: [t] }).then(() => true, () => false)) ok.push(t);
    if (!ok.length) throw new UsageError(`no turn of episode ${parent.record.episodeId} can be forked under these settings`);
    turns = ok;
    config = { ...config, forkAt: turns };
  }
  try {
    await check(config);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const keys = keyPreflight(config);
  if (keys) throw new UsageError(keys);
  return config;
}

/** `parley fork RUN EPISODE --at T … --out DIR`. */
export const run = commandRun(spec, async (args, argv) => {
  const config = await planFork(args.positionals, args.flags);
  const log = (l: string) => console.log(l);
  const interrupt = interruptSignal(log);
  const unwatch = exitWithLauncher();
  try {
    const fork = config.fork!;
    log(`parley fork ${terminalSafe(fork.parentRun)}/${terminalSafe(fork.episode)} at turn${config.forkAt!.length > 1 ? 's' : ''} ${config.forkAt!.join(', ')} × ${config.repeats} → ${resolve(config.out)}`);
    const tty = stdoutTerminal();
    const result = await runExperiment(config, { log, hosting: 'local', signal: interrupt.signal, extend: args.flags.extend === true, ...(tty ? { tty } : {}) });
    if (interrupt.signal.aborted) {
      // Each fork is appended to episodes.jsonl as it ends; those cut short are not, and the same command plays them again.
      log(`${result.ran.length} episodes recorded and saved; resume with the same command: parley fork ${argv.map((w) => terminalSafe(w)).join(' ')}`);
      return 130;
    }
    return reportRun(result, log);
  } finally {
    unwatch();
    interrupt.dispose();
  }
});
