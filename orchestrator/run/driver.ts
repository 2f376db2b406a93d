import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { writeFileAtomicSync } from '../../disk/atomic-write.js';
import { SimulationProtocol as SimulationProtocolSchema, terminalSafe } from '../../protocol/index.js';
import { basename, join, resolve } from 'node:path';
import { cassetteRoot } from '../../llm/cassette.js';
import type { EpisodeRecord, PolicyConfig, SimulationProtocol } from '../../protocol/index.js';
import { acquireRunLock, appendEpisode, readEpisodes, readRunJson, RunPaths, writeRunScenarios, type RunStats } from '../../run-dir/index.js';
import type { Scenario } from '../../scenarios/model.js';
import { systemClock } from '../clock.js';
import type { EpisodePlan } from '../episode-plan.js';
import type { RunConfig } from '../run-config.js';
import { hostEpisodes, type HostingOptions } from './episode-hosting.js';
import { planEpisodes } from './plan.js';
import { protocolKey, resolveProtocol } from './protocol.js';
import { ProgressReporter, type StatusTerminal } from './progress-reporter.js';
import { prepareResume } from './resume.js';
import { writeManifest, type RunManifest } from './run-manifest.js';
import type { RunProbes } from './run-probes.js';
import { loadRunScenarios } from './scenario-source.js';
import type { ReplayedSeat } from './stats.js';
import { finishRun } from './finish.js';
import { checkExperimentIdentity, protocolChange, type HistoryEntry } from './experiment-identity.js';

/** The run directory holds another experiment (see experiment-identity.ts); nothing was written. */
export class RunDirConflict extends Error {
  override name = 'RunDirConflict';
}

/** What a user (or `serve`) decides about a run beyond its config; test and bench seams are `RunProbes`. */
export interface DriverOptions extends HostingOptions {
  /** Progress and notices, one line each (never scenario content). */
  log: (line: string) => void;
  /** A terminal (stdout is a TTY): progress is one refreshing status line; otherwise plain lines. */
  tty?: StatusTerminal;
  /** Add scenarios, modes or repeats to the experiment already in the run directory (`--extend`). */
  extend?: boolean;
}

export interface RunResult {
  dir: string;
  runId: string;
  /** Every record of the run directory after this invocation (earlier ones included). */
  records: EpisodeRecord[];
  /** Records written by this invocation. */
  ran: EpisodeRecord[];
  /** Planned episodes already recorded and skipped. */
  skipped: number;
  planned: number;
  stats: RunStats;
}

/**
 * Runs an experiment into a run directory: loads and filters scenarios, takes the directory's lock,
 * expands episodes, skips those already recorded (resume), hosts seats (local agent processes or remote
 * agents), runs episodes with `concurrency` in flight, appends each record as it finishes, and writes
 * run.json at the start and, with the stats, at the end.
 */
export async function runExperiment(input: RunConfig, opts: DriverOptions, probes: RunProbes = {}): Promise<RunResult> {
  const paths = new RunPaths(resolve(input.out));
  const config = opts.hosting === 'remote' ? asRemote(input) : withRunDirs(input, paths);
  // One experiment per run directory: other settings are refused before anything in it changes.
  const previous = readRunJson(paths);
  const identity = checkExperimentIdentity(previous.ok ? previous.run : null, input, opts.extend ?? false, paths.dir);
  if (!identity.ok) throw new RunDirConflict(identity.message);
  // Scenarios first: a run that cannot start leaves nothing behind.
  const scenarios = await loadRunScenarios(config);
  const protocol = resolveProtocol(config, scenarios);
  const changed = protocolChange(previous.ok ? previous.run : null, protocolKey(protocol), recordedProtocolKey, paths.dir);
  if (changed) throw new RunDirConflict(changed);
  // A replay that cannot answer fails now, naming what is missing, not on every episode.
  const unanswerable = missingCassettes(planEpisodes(scenarios, config, protocol));
  if (unanswerable) throw new Error(unanswerable);
  const createdHere = !existsSync(paths.runJson);
  const runJsonBefore = createdHere ? null : readFileSync(paths.runJson, 'utf8');
  mkdirSync(paths.ledgersDir, { recursive: true });
  const lock = await acquireRunLock(paths, {
    command: opts.hosting === 'remote' ? 'serve' : 'run',
    log: opts.log,
    ...(probes.lockWaitMs !== undefined ? { waitMs: probes.lockWaitMs } : {}),
  });
  try {
    const manifest = startRun(paths, input, config, scenarios, protocol, opts, identity.changed);
    let ran: EpisodeRecord[];
    try {
      ran = await runPending(paths, manifest, opts, probes);
    } catch (err) {
      // Nothing ran (e.g. the port was in use): a directory this invocation started keeps no run.json,
      // and an existing run gets its run.json back as it was (its stats and end are not wiped).
      if (createdHere && !readEpisodes(paths).rows.length) for (const f of [paths.runJson, paths.scenariosJsonl]) rmSync(f, { force: true });
      else if (runJsonBefore !== null) writeFileAtomicSync(paths.runJson, runJsonBefore);
      throw err;
    }
    return finishLocalRun(paths, manifest, ran, opts.signal?.aborted ?? false);
  } finally {
    lock.release();
  }
}

/** The run's manifest and what is left to run: resume state, run id, scenarios.jsonl, run.json (started). */
function startRun(paths: RunPaths, input: RunConfig, config: RunConfig, scenarios: Scenario[], protocol: SimulationProtocol, opts: DriverOptions, changed: string[]): RunManifest & { pending: EpisodePlan[] } {
  const remote = opts.hosting === 'remote';
  opts.log(`protocol: ${protocolKey(protocol)}${protocol.name === 'parley' ? " (Parley's task moves and task-end stops; --protocol paper reproduces the paper)" : " (SOTOPIA's prompts and stop rules; docs/fidelity.md)"}`);
  // Remote seats bring their own policy: it is recorded from what each agent reports at join.
  const plans = planEpisodes(scenarios, config, protocol).map((p) => (remote ? { ...p, policies: undefined } : p));
  const { pending } = prepareResume(paths, plans, { retryFailed: config.retryFailed, log: opts.log });
  const skipped = plans.length - pending.length;
  if (skipped) opts.log(`resuming: ${skipped} of ${plans.length} episode(s) already recorded`);
  const previous = readRunJson(paths);
  if (!previous.ok) opts.log(`${previous.message}; writing a new one`);
  const runId = (previous.ok && previous.run?.runId) || basename(paths.dir);
  const used = uniqueScenarios(plans);
  writeRunScenarios(paths, used);
  const startedAt = new Date().toISOString();
  const history: HistoryEntry[] = [
    ...(previous.ok && Array.isArray(previous.run?.['history']) ? (previous.run['history'] as HistoryEntry[]) : []),
    { startedAt, extend: opts.extend ?? false, changed, config: input },
  ];
  const isReplayed = replayedSeats(plans);
  const manifest: RunManifest = { runId, hosting: opts.hosting, input, config, protocol, plans, scenarios: used, skipped, startedAt, history, ...(isReplayed ? { isReplayed } : {}) };
  writeManifest(paths, manifest, { endedAt: null, stats: null });
  return { ...manifest, pending };
}

/** Hosts and runs the pending episodes, appending each record as it ends; returns this invocation's records. */
async function runPending(paths: RunPaths, m: RunManifest & { pending: EpisodePlan[] }, opts: DriverOptions, probes: RunProbes): Promise<EpisodeRecord[]> {
  const names = new Map(m.scenarios.map((s) => [s.id, s.codename ?? s.id]));
  const progress = new ProgressReporter({
    ...(m.isReplayed ? { isReplayed: m.isReplayed } : {}),
    scenarioName: (id) => terminalSafe(names.get(id) ?? id),
    total: m.plans.length,
    alreadyDone: m.skipped,
    log: opts.log,
    ...(opts.tty ? { tty: opts.tty } : {}),
    ...(probes.progressIntervalMs !== undefined ? { intervalMs: probes.progressIntervalMs } : {}),
  });
  const ran: EpisodeRecord[] = [];
  const record = (r: EpisodeRecord) => {
    if (opts.signal?.aborted) return;
    appendEpisode(paths, r);
    ran.push(r);
    progress.episode(r);
  };
  try {
    await hostEpisodes(m.pending, { config: m.config, protocol: m.protocol, runId: m.runId, paths, clock: probes.clock ?? systemClock, say: (l) => progress.notice(l), record, probes }, opts);
  } finally {
    progress.close();
  }
  return ran;
}

/** Stats over every record of the directory (earlier invocations included) into run.json (ended). */
function finishLocalRun(paths: RunPaths, m: RunManifest, ran: EpisodeRecord[], interrupted: boolean): RunResult {
  const records = readEpisodes(paths).rows.map((r) => r.record);
  const stats = finishRun({ records, ...(m.isReplayed ? { isReplayed: m.isReplayed } : {}), interrupted, write: (ending) => writeManifest(paths, m, ending) });
  return { dir: paths.dir, runId: m.runId, records, ran, skipped: m.skipped, planned: m.plans.length, stats };
}

/** Remote seats: the policy is the agent's business; episode ids say `remote` instead of a spec. */
function asRemote(config: RunConfig): RunConfig {
  return { ...config, agents: [{ spec: 'remote', params: {} }], scriptWriter: { spec: 'remote', params: {} } };
}

/** Local seats record LLM traffic under the run's `cassettes/`; `--replay` answers from a recorded run. */
function withRunDirs(config: RunConfig, paths: RunPaths): RunConfig {
  // The LLM layer finds the cassettes under a run directory (llm/cassette.ts cassetteRoot).
  const replayDir = config.replay ? resolve(config.replay) : undefined;
  const dirs = (p: PolicyConfig): PolicyConfig => ({ ...p, cassetteDir: p.cassetteDir ?? paths.cassettesDir, ...(replayDir ? { replayDir } : {}) });
  return { ...config, agents: config.agents.map(dirs), scriptWriter: dirs(config.scriptWriter) };
}

function uniqueScenarios(plans: readonly EpisodePlan[]): Scenario[] {
  const seen = new Map<string, Scenario>();
  for (const p of plans) if (!seen.has(p.scenario.id)) seen.set(p.scenario.id, p.scenario);
  return [...seen.values()];
}

/** LLM policies answer from cassettes when they carry a replay directory. */
const isLlmReplay = (p: PolicyConfig) => Boolean(p.replayDir) && /^(openai|mistral|replay):/.test(p.spec);

/** Which seats of which episodes are answered from cassettes; undefined when none is (no replay). */
function replayedSeats(plans: readonly EpisodePlan[]): ReplayedSeat | undefined {
  const seats = new Set<string>();
  for (const p of plans) for (const [seat, policy] of Object.entries(p.policies ?? {})) if (isLlmReplay(policy)) seats.add(`${p.episodeId}\u0000${seat}`);
  return seats.size ? (episodeId, seat) => seats.has(`${episodeId}\u0000${seat}`) : undefined;
}

/**
 * Replay preflight: every planned episode with a replayed LLM seat must have that run's cassettes
 * (same policies → same episode ids). Null when all are there, else a message naming what is missing.
 */
function missingCassettes(plans: readonly EpisodePlan[]): string | null {
  const missing: string[] = [];
  let from = '';
  for (const p of plans) {
    const replaying = Object.values(p.policies ?? {}).filter(isLlmReplay);
    if (!replaying.length) continue;
    from = cassetteRoot(replaying[0]!.replayDir!);
    if (!existsSync(join(from, p.episodeId))) missing.push(p.episodeId);
  }
  if (!missing.length) return null;
  return `replay cannot answer ${missing.length} of ${plans.length} episode(s): no cassettes for ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''} in ${from} ` +
    '(the recorded run did not play these episodes with these policies; give the same scenarios, modes and seat policies, or none with --replay)';
}

/** The key of a protocol recorded in run.json, or null when none is (a run from before protocols). */
export function recordedProtocolKey(value: unknown): string | null {
  const parsed = SimulationProtocolSchema.safeParse(value);
  return parsed.success ? protocolKey(parsed.data) : null;
}
