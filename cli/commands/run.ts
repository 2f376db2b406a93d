import { resolve } from 'node:path';
import { missingKeys } from '../../llm/preflight.js';
import { Mode, MODES, type PolicyConfig } from '../../protocol/index.js';
import { RunConfig, type RunConfigInput } from '../../orchestrator/run-config.js';
import { runExperiment, type RunResult } from '../../orchestrator/run/driver.js';
import { summaryLines } from '../../orchestrator/run/summary.js';
import { formatHelp, parseArgs, type FlagSpecs, type FlagValue } from '../args.js';
import { loadExperiment, POLICY_SPEC } from '../experiment.js';
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
};

/** Flags of commands that can leave seats to people (`human` seats: a browser link each). */
export const HUMAN_FLAGS: FlagSpecs = {
  'human-deadline': { type: 'number', metavar: 'MS', describe: 'time a person has for one move on a human seat (default: the turn deadline)' },
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
  concurrency: { type: 'number', describe: 'episodes in flight at once (default 4)' },
  agent1: { type: 'string', metavar: 'SPEC', describe: 'policy of the first seat: bot | openai:<model> | mistral:<model> | replay:<dir> | human (a person: prints a browser link)' },
  agent2: { type: 'string', metavar: 'SPEC', describe: 'policy of the second seat (default: as agent1)' },
  'script-writer': { type: 'string', metavar: 'SPEC', describe: 'policy of the script writer in script mode (default bot)' },
  judge: { type: 'string', metavar: 'SPEC', describe: 'judge model recorded with the run (evaluation: parley eval)' },
  replay: { type: 'string', metavar: 'RUNDIR', describe: 'answer every LLM call from the cassettes of a recorded run' },
  multiplex: { type: 'boolean', describe: 'let one agent process host seats of different episodes at once (never two of one episode)' },
  'seats-per-process': { type: 'number', metavar: 'N', describe: 'with --multiplex: seats one agent process may host at once (default 8)' },
  'retry-failed': { type: 'boolean', describe: 'rerun episodes recorded as failed in DIR' },
  ...HUMAN_FLAGS,
  help: { type: 'boolean', describe: 'show this help' },
};

type Built = { ok: true; config: RunConfig } | { ok: false; message: string };

/** Flag names by RunConfig field, to name the flag in validation errors. */
const FLAG_OF: Record<string, string> = {
  scenarios: '--scenarios', subset: '--subset', modes: '--modes', out: '--out', maxTurns: '--max-turns',
  turnDeadlineMs: '--turn-deadline-ms', repeats: '--repeats', concurrency: '--concurrency', limit: '--limit',
  agents: '--agent1/--agent2', scriptWriter: '--script-writer', judge: '--judge', replay: '--replay', seed: '--seed',
};

/**
 * RunConfig from an experiment file (if `--experiment`) overlaid with flags, plus per-command defaults
 * underneath both. Every error names the flag or the file line.
 */
export function buildRunConfig(flags: Record<string, FlagValue>, defaults: Partial<RunConfigInput> = {}): Built {
  let base: Partial<RunConfigInput> = { ...defaults };
  if (typeof flags.experiment === 'string') {
    const exp = loadExperiment(flags.experiment);
    if (!exp.ok) return exp;
    base = { ...base, ...exp.config };
  }
  const input: Partial<RunConfigInput> = { ...base };
  const set = <K extends keyof RunConfigInput>(k: K, v: FlagValue | undefined) => {
    if (v !== undefined) (input as Record<string, unknown>)[k] = v;
  };
  set('scenarios', flags.scenarios);
  set('subset', flags.subset);
  set('out', flags.out);
  set('maxTurns', flags['max-turns']);
  set('turnDeadlineMs', flags['turn-deadline-ms']);
  set('repeats', flags.repeats);
  set('concurrency', flags.concurrency);
  set('limit', flags.limit);
  set('seed', flags.seed);
  set('replay', flags.replay);
  if (flags['retry-failed'] === true) input.retryFailed = true;
  if (flags.modes !== undefined) {
    const modes = flags.modes as string[];
    const bad = modes.find((m) => !Mode.safeParse(m).success);
    if (bad) return { ok: false, message: `--modes: unknown mode '${bad}' (choose from ${MODES.join(', ')})` };
    input.modes = modes as Mode[];
  }
  for (const [flag, value] of [['agent1', flags.agent1], ['agent2', flags.agent2], ['script-writer', flags['script-writer']], ['judge', flags.judge]] as const) {
    if (typeof value === 'string' && !POLICY_SPEC.test(value)) {
      return { ok: false, message: `--${flag}: '${value}' is not a policy spec (bot, bot:<name>, openai:<model>, mistral:<model>, replay:<dir>, human)` };
    }
  }
  if (typeof flags.agent1 === 'string' || typeof flags.agent2 === 'string') {
    const agents = [...(input.agents ?? [{ spec: 'bot' }])];
    if (typeof flags.agent1 === 'string') agents[0] = { spec: flags.agent1 };
    if (typeof flags.agent2 === 'string') agents[1] = { spec: flags.agent2 };
    input.agents = agents.map((a) => a ?? { spec: 'bot' });
  }
  if (typeof flags['script-writer'] === 'string') input.scriptWriter = { spec: flags['script-writer'] };
  if (typeof flags.judge === 'string') input.judge = { spec: flags.judge };
  if (flags.multiplex === true) input.pool = { ...input.pool, multiplex: true, seatsPerProcess: input.pool?.seatsPerProcess ?? 8 };
  if (flags['seats-per-process'] !== undefined) {
    const n = flags['seats-per-process'] as number;
    if (!Number.isInteger(n) || n < 1) return { ok: false, message: `--seats-per-process: expected a positive integer (got ${n})` };
    if (!input.pool?.multiplex) return { ok: false, message: '--seats-per-process needs --multiplex' };
    input.pool = { ...input.pool, seatsPerProcess: n };
  }
  if (input.out === undefined) return { ok: false, message: '--out DIR is required (the run directory)' };
  const parsed = RunConfig.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = String(issue.path[0] ?? '');
    return { ok: false, message: `${FLAG_OF[key] ?? (key || 'config')}: ${issue.message}` };
  }
  return { ok: true, config: parsed.data };
}

/** Policies that will actually be used by the run (for the key preflight). */
export function usedPolicies(config: RunConfig): PolicyConfig[] {
  const used: PolicyConfig[] = [];
  if (config.modes.some((m) => m !== 'script')) used.push(...config.agents);
  if (config.modes.includes('script')) used.push(config.scriptWriter);
  if (config.judge) used.push(config.judge);
  if (config.replay) return used.map((p) => ({ ...p, replayDir: resolve(config.replay!) }));
  return used;
}

/** Checks API keys before any episode: a run never half-completes for want of a key. */
export function keyPreflight(config: RunConfig): string | null {
  const missing = missingKeys(usedPolicies(config));
  if (!missing.length) return null;
  return missing.map((m) => `missing ${m.variable} for policy ${m.spec} (set it in the environment)`).join('\n');
}

/** Prints the end-of-run summary; returns the exit code (1 only if every episode failed). */
export function reportRun(result: RunResult, print: (line: string) => void): number {
  print('');
  print(`run ${result.runId}: ${result.stats.episodes.total} episode(s) recorded in ${result.dir}` +
    (result.skipped ? ` (${result.skipped} from an earlier invocation)` : ''));
  for (const line of summaryLines(result.records)) print(`  ${line}`);
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

const HELP = formatHelp(
  'parley run --out DIR [options]',
  'Run episodes with local agent processes (one per seat) and write a run directory:\n' +
    'run.json, scenarios.jsonl, episodes.jsonl, ledgers/<episode>/<seat>.jsonl.\n' +
    'Exit status: 0 when the run completed (failed episodes are recorded and counted), 1 when every\n' +
    'episode failed, 2 for bad arguments or a missing API key.',
  RUN_FLAGS,
);

/** `parley run`. */
export async function run(argv: string[]): Promise<number> {
  const args = parseArgs(argv, RUN_FLAGS);
  if (!args.ok) {
    console.error(`parley run: ${args.message}\n(parley run --help for options)`);
    return 2;
  }
  if (args.flags.help) {
    console.log(HELP);
    return 0;
  }
  if (args.positionals.length) {
    console.error(`parley run: unexpected argument '${args.positionals[0]}'`);
    return 2;
  }
  const built = buildRunConfig(args.flags);
  if (!built.ok) {
    console.error(`parley run: ${built.message}`);
    return 2;
  }
  const keys = keyPreflight(built.config);
  if (keys) {
    console.error(`parley run: ${keys}`);
    return 2;
  }
  const human = humanDeadline(args.flags);
  if (!human.ok) {
    console.error(`parley run: ${human.message}`);
    return 2;
  }
  const log = (l: string) => console.log(l);
  const interrupt = interruptSignal(log);
  const unwatch = exitWithLauncher();
  try {
    log(`parley run → ${resolve(built.config.out)}`);
    const tty = stdoutTerminal();
    const result = await runExperiment(built.config, {
      log,
      hosting: 'local',
      signal: interrupt.signal,
      ...(tty ? { tty } : {}),
      ...(human.ms !== undefined ? { humanDeadlineMs: human.ms } : {}),
    });
    if (interrupt.signal.aborted) {
      log(`interrupted after ${result.ran.length} episode(s); rerun with the same --out to resume`);
      return 130;
    }
    return reportRun(result, log);
  } catch (err) {
    console.error(`parley run: ${(err as Error).message}`);
    return 1;
  } finally {
    unwatch();
    interrupt.dispose();
  }
}
