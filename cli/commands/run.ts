import { ALLOW_ORIGIN_FLAG, allowOrigins } from '../allow-origin.js';
import { CONSENT_FLAGS } from '../run-dir-consent.js';
import { MULTIPLEX_SEATS_PER_PROCESS } from '../multiplex-seats.js';
import { resolve } from 'node:path';
import { missingKeys } from '../../llm/preflight.js';
import { policyKind, type PolicyConfig } from '../../protocol/index.js';
import type { RunConfig } from '../../orchestrator/run-config.js';
import type { RunResult } from '../../orchestrator/run/driver.js';
import { runExperiment } from '../run-experiment.js';
import { selectionLines, summaryLines } from '../../orchestrator/run/summary.js';
import type { FlagSpecs, FlagValue } from '../args.js';
import { connectQueue } from '../queue-connect.js';
import { queueIgnoredFlag } from '../queue-worker-settings.js';
import { commandRun, UsageError, type CommandSpec } from '../command.js';
import { buildArms, type BuiltArm } from '../plan/arms.js';
import { planArm, planLines } from '../plan/dry-run.js';
import { loadRubric } from '../../evaluator/rubric/load-rubric.js';
import { BUILTIN_RUBRICS } from '../../evaluator/rubric/builtin.js';
import { buildRunConfig } from '../plan/run-config.js';
import { settingFlagSpecs } from '../plan/setting-flags.js';
import { watchLauncher } from '../launcher-watch.js';

/** Flags shared by `run`, `serve` and `demo` that shape a RunConfig. */
export const CONFIG_FLAGS: FlagSpecs = {
  scenarios: { type: 'string', metavar: 'builtin|FILE', describe: 'scenario set: builtin, or a Parley scenario file (JSONL)' },
  subset: { type: 'string', metavar: 'NAME', describe: 'only scenarios tagged with this subset (e.g. mutual_friends, hard)' },
  modes: { type: 'list', metavar: 'M1,M2', describe: 'modes to run: script,agents,mindreaders (default all three)' },
  out: { type: 'string', metavar: 'DIR', describe: 'run directory (rerunning with the same DIR resumes)' },
  'max-turns': { type: 'number', describe: 'turn limit per episode (default 20)' },
  'turn-deadline-ms': { type: 'number', metavar: 'MS', describe: 'time a seat has for one move (default 120000)' },
  repeats: { type: 'number', describe: 'episodes per scenario and mode (default 1)' },
  limit: { type: 'number', describe: 'run at most N episodes' },
  seed: { type: 'number', describe: 'seed of the built-in scenario set (default 1)' },
  experiment: { type: 'string', metavar: 'FILE', describe: 'experiment YAML; flags override its values' },
  // The simulation settings (simulation/settings.ts): --protocol and each protocol switch.
  ...settingFlagSpecs('config'),
  'reformat-model': { type: 'string', metavar: 'SPEC', describe: 'the model asked once to reformat an unreadable generator reply (default under paper: openai:gpt-3.5-turbo for openai: seats, as SOTOPIA, else the seat\'s own model; on the seat\'s endpoint and key)' },
  redraw: { type: 'boolean', describe: 'after parley eval, under --selection first-valid: re-draw the counted episodes the judge could not score (then eval --missing judges only the new draws)' },
  extend: { type: 'boolean', describe: 'add scenarios, modes or repeats to the experiment already in DIR (recorded in run.json history)' },
  'repair-scenarios': { type: 'boolean', describe: "put back into DIR/scenarios.jsonl the scenarios its recorded episodes use and it lacks, from --scenarios (whole set, no subset)" },
};

/** Seats past the second of a group scenario: `--agent3` … `--agent12` (scenarios/seat-structure.ts MAX_SEATS). */
export const GROUP_SEAT_NUMBERS = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12] as const;

/** `--agentK` flags for group seats, worded for `run` (a policy) or `serve` (hosted here, else open to people). */
export function groupSeatFlags(hosted: boolean): FlagSpecs {
  return Object.fromEntries(
    GROUP_SEAT_NUMBERS.map((k) => [`agent${k}`, { type: 'string', metavar: 'SPEC', describe: hosted ? `host seat ${k} of a group scenario here with this policy` : `policy of seat ${k} of a group scenario (default: as the highest seat set before it)` }]),
  ) as FlagSpecs;
}

/** `--watch` of `run` and `serve`: the live watch page (orchestrator/watch/). */
export const WATCH_FLAG: FlagSpecs = {
  watch: { type: 'boolean', describe: 'serve a live view of the run and print `watch url http://HOST:PORT/watch?key=K` (the key is its only way in)' },
};

/** Flags of commands that can leave seats to people (`human` seats: a browser link each). */
export const HUMAN_FLAGS: FlagSpecs = {
  'human-deadline': { type: 'number', metavar: 'MS', describe: 'time a person has for one move on a human seat (default: the turn deadline)' },
  'allow-origin': ALLOW_ORIGIN_FLAG,
};

/** `--human-deadline` checked: undefined when absent, a message when invalid. */
export function humanDeadline(flags: Record<string, FlagValue>): { ok: true; ms?: number } | { ok: false; message: string } {
  const ms = flags['human-deadline'] as number | undefined;
  if (ms === undefined) return { ok: true };
  if (!Number.isInteger(ms) || ms <= 0) return { ok: false, message: '--human-deadline must be a positive integer (milliseconds)' };
  return { ok: true, ms };
}

export const RUN_FLAGS: FlagSpecs = {
  ...CONFIG_FLAGS,
  concurrency: { type: 'number', describe: 'episodes in flight at once (default 4; a bot-only run adds agent processes only as seats wait)' },
  agent1: { type: 'string', metavar: 'SPEC', describe: 'policy of the first seat: bot | bot:<name> | openai:<model> | mistral:<model> | replay:<run-dir> (that seat as recorded there) | human (a person: prints a browser link)' },
  agent2: { type: 'string', metavar: 'SPEC', describe: 'policy of the second seat (default: as agent1)' },
  ...groupSeatFlags(false),
  'script-writer': { type: 'string', metavar: 'SPEC', describe: 'policy of the script writer in script mode (default bot)' },
  judge: { type: 'string', metavar: 'SPEC', describe: 'judge model recorded with the run (evaluation: parley eval)' },
  ...settingFlagSpecs('run'),
  replay: { type: 'string', metavar: 'RUNDIR', describe: 'answer every LLM call from the cassettes of a recorded run' },
  ...CONSENT_FLAGS,
  multiplex: { type: 'boolean', describe: 'let one agent process host seats of different episodes at once (never two of one episode)' },
  'seats-per-process': { type: 'number', metavar: 'N', describe: `with --multiplex: seats in play one agent process may host at once; a seat whose episode is recorded no longer counts (default ${MULTIPLEX_SEATS_PER_PROCESS})` },
  'retry-failed': { type: 'boolean', describe: 'rerun episodes recorded as failed in DIR' },
  'dry-run': { type: 'boolean', describe: 'print the plan (episodes by arm and mode, estimated tokens and cost) and call nothing' },
  arm: { type: 'list', metavar: 'A1,A2', describe: 'run only these arms of the experiment file (default all, one after another)' },
  queue: { type: 'string', metavar: 'redis://HOST:PORT', describe: 'coordinate: enqueue the episodes on Redis for `parley worker`s and collect their results into DIR (--concurrency, --multiplex and --seats-per-process are then the workers\' flags, refused here; an experiment file\'s concurrency and pool are recorded as not applied)' },
  ...WATCH_FLAG,
  'watch-port': { type: 'number', metavar: 'N', describe: 'with --watch: the port the watch page (and the seats\' server) listens on (default: any free port)' },
  rpm: { type: 'number', metavar: 'N', describe: 'requests per minute per provider account for every LLM seat (under --queue: across all workers)' },
  tpm: { type: 'number', metavar: 'N', describe: 'tokens per minute per provider account for every LLM seat (with --queue only; refused without it)' },
  ...HUMAN_FLAGS,
};

/** Policies that will actually be used by the run (for the key preflight). */
export function usedPolicies(config: RunConfig): PolicyConfig[] {
  const used: PolicyConfig[] = [];
  if (config.modes.some((m) => m !== 'script')) used.push(...config.agents);
  if (config.modes.includes('script')) used.push(config.scriptWriter);
  if (config.judge) used.push(config.judge);
  if (config.replay) return used.map((p) => ({ ...p, replayDir: p.replayDir ?? resolve(config.replay!) }));
  return used;
}

/**
 * A tokens-per-minute limit is held only through Redis, across a queue's workers (`--queue`); a local run
 * has nothing that would hold it, so `--tpm` (or `tpm:` in the experiment file, or a seat's `params.tpm`)
 * without `--queue` is refused rather than carried and ignored.
 */
export function unenforcedTpm(arms: readonly { name: string; config: RunConfig }[]): string | null {
  for (const arm of arms) {
    const policies = [...arm.config.agents, arm.config.scriptWriter, ...(arm.config.judge ? [arm.config.judge] : [])];
    const limited = policies.find((p) => typeof p.params?.['tpm'] === 'number' && (p.params['tpm'] as number) > 0);
    if (limited) return `--tpm (tokens per minute, here ${String(limited.params['tpm'])} for ${limited.spec}) is enforced only across the workers of --queue; without --queue nothing would hold it: drop it, or add --queue redis://HOST:PORT`;
  }
  return null;
}

/** Checks API keys before any episode: a run never half-completes for want of a key. */
export function keyPreflight(config: RunConfig): string | null {
  const missing = missingKeys(usedPolicies(config));
  if (!missing.length) return null;
  return missing.map((m) => `missing ${m.variable} for policy ${m.spec} (set it in the environment)`).join('; ');
}

/** Prints the end-of-run summary; returns the exit code (1 only if every episode failed). */
export function reportRun(result: RunResult, print: (line: string) => void): number {
  print('');
  // Every record this invocation did not write: an --extend's other subsets and modes count too.
  const earlier = result.records.length - result.ran.length;
  print(`run ${result.runId}: ${result.stats.episodes.total} episode(s) recorded in ${result.dir}` +
    (earlier ? ` (${earlier} from an earlier invocation)` : ''));
  for (const line of [...summaryLines(result.records), ...selectionLines(result.records)]) print(`  ${line}`);
  const replayed = result.stats.replayed;
  if (replayed) {
    const tokens = Object.values(replayed.usage).reduce((n, u) => n + u.prompt + u.completion, 0);
    const spentTokens = Object.values(result.stats.usage).reduce((n, u) => n + u.prompt + u.completion, 0);
    const usd = (c: { usd: number | null }) => (c.usd === null ? 'unpriced' : `$${c.usd.toFixed(4)}`);
    print(`  replayed from cassettes: ${tokens} tokens (${usd(replayed.cost)} when recorded), not spent again; spent: ${spentTokens} tokens, ${usd(result.stats.cost)}`);
  }
  const { unparsableTurns, unparsableScripts } = result.stats;
  if (unparsableTurns || unparsableScripts) print(`  unreadable replies recorded as none (--on-unparsable none): ${unparsableTurns} agent turn(s), ${unparsableScripts} script(s) made empty`);
  const { providerErrorTurns, providerErrorScripts } = result.stats;
  if (providerErrorTurns || providerErrorScripts) print(`  failed LLM calls recorded as none (--on-provider-error none): ${providerErrorTurns} agent turn(s), ${providerErrorScripts} script(s) made empty`);
  const { total, failed } = result.stats.episodes;
  return total > 0 && failed === total ? 1 : 0;
}

/**
 * Stops at once when the `npm exec` that launched this process is killed (see launcher-watch.ts): the
 * exit handlers kill the agent processes and release the run directory; in-flight episodes are not
 * recorded, so a rerun resumes cleanly.
 */
export function exitWithLauncher(): () => void {
  return watchLauncher(() => {
    process.stderr.write('parley: the npm process that started this run is gone; stopping now (rerun with the same --out to resume)\n');
    process.exit(137);
  });
}

/** Progress as one refreshing line when stdout is a terminal. */
export function stdoutTerminal(): { write(text: string): void; columns(): number } | undefined {
  if (!process.stdout.isTTY) return undefined;
  return { write: (text) => void process.stdout.write(text), columns: () => process.stdout.columns ?? 100 };
}

/** Ctrl-C stops launching episodes; in-flight ones are not recorded, so rerunning resumes cleanly. */
export function interruptSignal(log: (l: string) => void): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(130);
    // On a terminal the progress status line has no newline yet: end it, so the notice is a line of its own.
    if (process.stdout.isTTY) process.stdout.write('\n');
    log('interrupted: finishing up (press Ctrl-C again to quit now); rerun with the same --out to resume');
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/** `--watch-port N`: a port number, and only with `--watch` (a setting that would do nothing is refused). */
export function watchPortFlag(flags: Record<string, FlagValue>): number | undefined {
  const v = flags['watch-port'];
  if (v === undefined) return undefined;
  if (flags.watch !== true) throw new UsageError('--watch-port needs --watch');
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 65535) throw new UsageError(`--watch-port must be an integer in 0..65535 (got ${String(v)})`);
  return v;
}

/** `parley run`'s command line: flags, positionals and help, in one place. */
export const spec: CommandSpec = {
  name: 'run',
  usage: 'parley run --out DIR [options]',
  summary: `Run episodes with local agent processes (one per seat) and write a run directory:
run.json, scenarios.jsonl, episodes.jsonl, ledgers/<episode>/<seat>.jsonl.
Exit status: 0 when the run completed (failed episodes are recorded and counted), 1 when every
episode failed, 2 for bad arguments or a missing API key.`,
  flags: RUN_FLAGS,
};

/** `--dry-run`: the plan of every arm, from the same scenario loading and expansion as a run; nothing is called. */
async function dryRun(arms: BuiltArm[]): Promise<number> {
  try {
    const plans = [];
    for (const arm of arms) plans.push({ ...(await planArm(arm.name, arm.config, arm.protocol)), seats: arm.seats });
    for (const line of planLines(plans)) console.log(line);
    return 0;
  } catch (err) {
    const message = (err as Error).message;
    const hint = /ENOENT/.test(message) ? '\n(SOTOPIA\'s 450 instances: npx parley scenarios fetch sotopia --out S.jsonl)' : '';
    console.error(`parley run: ${message}${hint}`);
    return 2;
  }
}

/** `parley run`. */
export const run = commandRun(spec, async (args) => {
  const built = buildArms(args.flags);
  if (!built.ok) throw new UsageError(built.message);
  // A rubric named by the experiment is checked now, not at `parley eval` after hours of simulation.
  for (const arm of built.arms) {
    if (!arm.config.rubric) continue;
    const rubric = loadRubric(arm.config.rubric);
    if (!rubric.ok) throw new UsageError(`${built.fromArms ? `arm ${arm.name}: ` : ''}${rubric.message}`);
    // Recorded as an absolute path, so `parley eval DIR` finds the file from any directory.
    if (!BUILTIN_RUBRICS.has(arm.config.rubric)) arm.config.rubric = resolve(arm.config.rubric);
  }
  const unheld = typeof args.flags.queue === 'string' ? null : unenforcedTpm(built.arms);
  if (unheld) throw new UsageError(unheld);
  if (args.flags['dry-run'] === true) return dryRun(built.arms);
  for (const arm of built.arms) {
    const keys = keyPreflight(arm.config);
    if (keys) throw new UsageError(`${built.fromArms ? `arm ${arm.name}: ` : ''}${keys}`);
  }
  const human = humanDeadline(args.flags);
  if (!human.ok) throw new UsageError(human.message);
  if (typeof args.flags.queue === 'string') {
    // Workers have no browser endpoint and no cassettes of this machine: people and replays run locally.
    if (args.flags.watch === true) throw new UsageError('--watch needs a local run (the coordinator of --queue serves no pages)');
    const ignored = queueIgnoredFlag(args.flags);
    if (ignored) throw new UsageError(ignored);
    for (const arm of built.arms) {
      const policies = [...arm.config.agents, arm.config.scriptWriter];
      if (policies.some((p) => policyKind(p.spec) === 'human') || human.ms !== undefined) throw new UsageError('human seats need a local run (parley run without --queue, or parley serve)');
      if (arm.config.replay || policies.some((p) => policyKind(p.spec) === 'replay')) throw new UsageError('--replay reads a local run directory; it cannot be combined with --queue');
    }
    // One coordinator per run directory: every arm is queued in turn (each arm its own directory and run key).
    let code = 0;
    for (const arm of built.arms) {
      const c = await runOnQueue(args.flags.queue, arm.config, args.flags.extend === true);
      if (c === 130) return 130;
      code = Math.max(code, c);
    }
    return code;
  }
  const watchPort = watchPortFlag(args.flags);
  const log = (l: string) => console.log(l);
  const interrupt = interruptSignal(log);
  const unwatch = exitWithLauncher();
  try {
    let code = 0;
    for (const arm of built.arms) {
      log(`parley run${built.fromArms ? ` (arm ${arm.name})` : ''} → ${resolve(arm.config.out)}`);
      log(arm.seats);
      const tty = stdoutTerminal();
      const result = await runExperiment(arm.config, {
        log,
        hosting: 'local',
        signal: interrupt.signal,
        extend: args.flags.extend === true,
        ...(tty ? { tty } : {}),
        ...(human.ms !== undefined ? { humanDeadlineMs: human.ms } : {}),
        allowOrigins: allowOrigins(args.flags),
        watch: args.flags.watch === true,
        ...(watchPort !== undefined ? { port: watchPort } : {}),
      });
      if (interrupt.signal.aborted) {
        log(`interrupted after ${result.ran.length} episode(s); rerun with the same --out to resume`);
        return 130;
      }
      code = Math.max(code, reportRun(result, log));
    }
    return code;
  } finally {
    unwatch();
    interrupt.dispose();
  }
});

/**
 * `parley run --queue URL`: the coordinator (queue/coordinator.ts). Redis is checked before anything is
 * printed or written: unreachable, it is one line naming the URL and exit status 1.
 */
async function runOnQueue(rawUrl: string, config: RunConfig, extend: boolean): Promise<number> {
  const url = await connectQueue('run', rawUrl);
  if (!url) return 1;
  const { runQueued } = await import('../../queue/coordinator.js');
  const log = (l: string) => console.log(l);
  const interrupt = interruptSignal(log);
  const unwatch = exitWithLauncher();
  try {
    log(`parley run → ${resolve(config.out)} (coordinator on ${url.shown})`);
    const tty = stdoutTerminal();
    const result = await runQueued(config, { url: url.url, shown: url.shown, log, extend, signal: interrupt.signal, ...(tty ? { tty } : {}) });
    if (result.interrupted) {
      log(`stopped waiting after collecting ${result.ran.length} episode(s); the workers go on: rerun with the same --out to collect the rest`);
      return 130;
    }
    const code = reportRun(result, log);
    if (result.lost) {
      log(`${result.lost} episode(s) failed on the workers and are not recorded; rerun with the same --out to try them again`);
      return 1;
    }
    return code;
  } catch (err) {
    console.error(`parley run: ${(err as Error).message}`);
    return 1;
  } finally {
    unwatch();
    interrupt.dispose();
  }
}
