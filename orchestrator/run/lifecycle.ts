import { mkdirSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { EpisodeRecord } from '../../protocol/index.js';
import { terminalSafe } from '../../text/terminal.js';
import { acquireRunLock, appendEpisode, readEpisodes, recordsWithAppended, rewriteEpisodes, readRunJson, RunPaths, runJsonSnapshot, undoRunStart, writeRunScenarios, type EpisodeRow, type EpisodesRead, type RunDirWriter, type RunJson, type RunLock, type RunStats } from '../../run-dir/index.js';
import type { Scenario } from '../../scenarios/model.js';
import type { EpisodePlan } from '../episode-plan.js';
import type { RunConfig } from '../run-config.js';
import { checkExperimentIdentity, protocolChange, type HistoryEntry } from './experiment-identity.js';
import { finishRun } from './finish.js';
import { ProgressReporter, type StatusTerminal } from './progress-reporter.js';
import { protocolKey, recordedProtocolKey, resolveProtocol } from './protocol.js';
import { definitionOf, MAX_DRAWS } from '../../simulation/index.js';
import { missingCassettes, replayedSeats } from './replay-preflight.js';
import { prepareResume } from './resume.js';
import { splitNotApplied, writeManifest, type NotAppliedSetting, type RunManifest } from './run-manifest.js';
import { readCodeVersionSoon } from './code-version.js';
import { loadRunInputs } from './run-inputs.js';
import { keptScenarios } from './kept-scenarios.js';
import { RunError, RunErrorCode } from './run-error.js';
import { drawOf, markOnArrival, markUnscored, mayOweRedraws, owedRedraws } from './selection.js';

/** The run directory holds another experiment (see experiment-identity.ts); nothing was written. */
export class RunDirConflict extends Error {
  override name = 'RunDirConflict';
}

/**
 * What differs between the ways a run's episodes are played: the local agent pool (or remote agents,
 * `serve`) and the queue's workers. Everything else — the run directory, its lock, run.json, resume,
 * records and stats — is the lifecycle's, so the executors cannot drift apart on it.
 */
export interface RunExecutor<Outcome extends object = object> {
  /** Recorded in run.json. */
  hosting: RunManifest['hosting'];
  /** The command named in the run directory's lock. */
  command: Extract<RunDirWriter, 'run' | 'serve'>;
  /** The configuration as run (default: as given); may refuse settings this executor cannot play. */
  configure?(input: RunConfig, paths: RunPaths): RunConfig;
  /** A plan as this executor hands it out (remote seats bring their own policy). */
  adaptPlan?(plan: EpisodePlan): EpisodePlan;
  /** run.json's `queue` field, from the run.json before this invocation (a rerun keeps its run key). */
  queueField?(previous: RunJson | null, runId: string): NonNullable<RunJson['queue']>;
  /**
   * Settings of the configuration this executor does not apply (the queue's workers decide them): run.json
   * records them under `notApplied`, and its `config` and `history` leave them out.
   */
  notApplied?: readonly NotAppliedSetting[];
  /** Plays `run.pending`, handing each finished record to `run.record`; resolves when done or interrupted. */
  execute(run: OpenRun): Promise<Outcome>;
}

/** A run directory opened under its lock, with run.json started: what an executor plays and reports to. */
export interface OpenRun {
  paths: RunPaths;
  /** The run directory's lock, held for the whole run: what an executor writes the run's files under. */
  lock: RunLock;
  manifest: RunManifest;
  /** Planned episodes without a record: what this invocation plays. */
  pending: readonly EpisodePlan[];
  /** Appends a finished episode's record (the commit point of an episode) and reports its progress. */
  record(r: EpisodeRecord): void;
  /** A notice line that does not tear the progress status line. */
  notice(line: string): void;
  /**
   * The re-draw a record just handed to `record` made owed (first-valid: a short draw is superseded), or
   * nothing. Calling it takes the re-draw: progress counts it, and the caller plays it in this `execute`
   * (the local pool plays it at once, on the same processes). An executor that never calls it gets the
   * owed re-draws as the `pending` of a later `execute` instead.
   */
  redrawAfter(r: EpisodeRecord): EpisodePlan | undefined;
  /**
   * Rewrites run.json as started (not ended) after the executor changed `manifest.queue` (a worker it had not
   * named yet): what it learnt mid-run is on disk if the run is killed before it ends.
   */
  saveManifest(): void;
}

/** How a run is watched and stopped, whatever its executor. */
export interface LifecycleOptions {
  /** Progress and notices, one line each (never scenario content). */
  log: (line: string) => void;
  /** A terminal (stdout is a TTY): progress is one refreshing status line; otherwise plain lines. */
  tty?: StatusTerminal;
  /** Add scenarios, modes or repeats to the experiment already in the run directory (`--extend`). */
  extend?: boolean;
  /** Set once the run is interrupted (Ctrl-C): run.json ends with `interrupted: true`. */
  signal?: AbortSignal;
  /** How long to wait for another writer holding the run directory (default 15 s). */
  lockWaitMs?: number;
  /** Period of the progress summary line or redraw. */
  progressIntervalMs?: number;
}

/**
 * A command's wider options narrowed to the lifecycle's: only those it was given, so that an absent one
 * keeps the lifecycle's default (both executors' entry points hand their options on through this).
 */
export function lifecycleOptions(o: LifecycleOptions): LifecycleOptions {
  const out: LifecycleOptions = { log: o.log };
  for (const k of ['tty', 'extend', 'signal', 'lockWaitMs', 'progressIntervalMs'] as const) if (o[k] !== undefined) Object.assign(out, { [k]: o[k] });
  return out;
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
  /** The run was stopped before every pending episode was played. */
  interrupted: boolean;
}

/**
 * One run, whichever executor plays it: checks that the run directory holds this experiment, loads
 * scenarios and resolves the protocol (a run that cannot start leaves nothing behind), takes the
 * directory's lock, resumes (skips what is recorded), writes scenarios.jsonl and run.json (started),
 * hands the pending episodes to the executor, appends each record it returns, and ends run.json with
 * the stats over every record. If the executor fails before anything was recorded, run.json is put
 * back as it was (removed, with scenarios.jsonl, in a directory this invocation created).
 */
export async function runLifecycle<Outcome extends object>(input: RunConfig, executor: RunExecutor<Outcome>, opts: LifecycleOptions): Promise<RunResult & Outcome> {
  const paths = new RunPaths(resolve(input.out));
  const config = executor.configure?.(input, paths) ?? input;
  // One experiment per run directory: other settings are refused before anything in it changes.
  const previous = readRunJson(paths);
  const identity = checkExperimentIdentity(previous.ok ? previous.run : null, input, opts.extend ?? false, paths.dir);
  if (!identity.ok) throw new RunDirConflict(identity.message);
  // run.json's code version: git runs while the scenarios load, not before them.
  const codeRead = readCodeVersionSoon();
  const inputs = await loadRunInputs(config);
  const scenarios = inputs.scenarios;
  const protocol = resolveProtocol(config, scenarios);
  if (config.redraw && protocol.selection !== 'first-valid') throw new RunError(RunErrorCode.BadConfig, `--redraw re-draws under --selection first-valid; this run counts ${protocol.selection} episodes`);
  const changed = protocolChange(previous.ok ? previous.run : null, protocolKey(protocol), recordedProtocolKey, paths.dir);
  if (changed) throw new RunDirConflict(changed);
  const plans = inputs.plan(protocol);
  // A replay that cannot answer fails now, naming what is missing, not on every episode.
  const unanswerable = missingCassettes(plans);
  if (unanswerable) throw new Error(unanswerable);
  // Every scenario a recorded or planned episode uses stays in scenarios.jsonl; one missing stops the run here.
  // Read once here; read again under the lock only if it changed meanwhile (prepareResume).
  const recorded = readEpisodes(paths);
  const kept = await keptScenarios(paths, uniqueScenarios(plans), config, recorded);
  await codeRead; // never rejects: a failed git is a null version
  const runJsonBefore = runJsonSnapshot(paths);
  mkdirSync(paths.ledgersDir, { recursive: true });
  const lock = await acquireRunLock(paths, { command: executor.command, log: opts.log, ...(opts.lockWaitMs !== undefined ? { waitMs: opts.lockWaitMs } : {}) });
  try {
    let manifest: RunManifest;
    let ran: EpisodeRecord[];
    let records: EpisodeRecord[];
    let outcome: Outcome;
    try {
      const started = startRun(lock, { input, config, scenarios, kept, plans, protocol, changed: identity.changed, recorded }, executor, opts);
      manifest = started.manifest;
      ({ ran, records, outcome } = await playPending(lock, started, executor, opts));
    } catch (err) {
      // Nothing ran: the directory goes back to how this invocation found it (run-dir/run-start.ts).
      undoRunStart(lock, runJsonBefore);
      throw err;
    }
    const interrupted = opts.signal?.aborted ?? false;
    const m = manifest;
    const stats = finishRun({ records, ...(m.isReplayed ? { isReplayed: m.isReplayed } : {}), interrupted, write: (ending) => writeManifest(lock, m, ending) });
    return { ...outcome, dir: paths.dir, runId: m.runId, records, ran, skipped: m.skipped, planned: m.plans.length, stats, interrupted };
  } finally {
    lock.release();
  }
}

interface Resolved {
  input: RunConfig;
  config: RunConfig;
  scenarios: Scenario[];
  /** What scenarios.jsonl holds: the planned scenarios and every one a recorded episode uses. */
  kept: Scenario[];
  /** Every planned episode (before the executor adapts them). */
  plans: EpisodePlan[];
  protocol: RunManifest['protocol'];
  /** Settings this invocation changed (`--extend`), for the history. */
  changed: string[];
  /** episodes.jsonl as read before the lock was taken. */
  recorded: EpisodesRead;
}

/** The run's manifest and what is left to run: resume state, run id, scenarios.jsonl, run.json (started). */
function startRun(lock: RunLock, r: Resolved, executor: RunExecutor<object>, opts: LifecycleOptions): { manifest: RunManifest; pending: EpisodePlan[]; rows: EpisodeRow[] } {
  const { protocol } = r;
  const { paths } = lock;
  opts.log(`protocol: ${protocolKey(protocol)} (${definitionOf(protocol.name).logLine})`);
  const plans = r.plans.map((p) => executor.adaptPlan?.(p) ?? p);
  if (r.config.redraw) redrawUnscored(lock, opts.log, r.recorded);
  const resumed = prepareResume(lock, plans, { retryFailed: r.config.retryFailed, log: opts.log, earlier: r.recorded });
  const skipped = plans.length - resumed.pending.length;
  if (skipped) opts.log(`resuming: ${skipped} of ${plans.length} episode(s) already recorded`);
  // Re-draws a killed run (or --redraw) left owed come after the first draws; they do not count against --limit.
  const owed = owedRedraws(plans, new Map(resumed.kept.map((k) => [k.episodeId, k])));
  if (owed.length) opts.log(`selection first-valid: ${owed.length} re-draw(s) owed (short or unscored draws superseded)`);
  const pending = [...resumed.pending, ...owed];
  const read = readRunJson(paths);
  if (!read.ok) opts.log(`${read.message}; writing a new one`);
  const before = read.ok ? read.run : null;
  const runId = before?.runId || basename(paths.dir);
  const used = uniqueScenarios(plans);
  writeRunScenarios(lock, r.kept);
  const startedAt = new Date().toISOString();
  /** Every invocation that ran into this directory (resumes, `--extend`s with what they changed). */
  const { input, notApplied } = splitNotApplied(r.input, executor.notApplied);
  const history: HistoryEntry[] = [...((before?.history ?? []) as HistoryEntry[]), { startedAt, extend: opts.extend ?? false, changed: r.changed, config: input }];
  const isReplayed = replayedSeats(plans);
  // The run's key in Redis outlives an invocation without the queue (local, serve): a later `--queue` rerun
  // then finds the jobs its earlier invocations left (queued, or finished and not yet collected).
  const queue = executor.queueField?.(before, runId) ?? before?.queue;
  if (before?.queue && !executor.queueField) opts.log(`run.json: an earlier --queue invocation (run key ${terminalSafe(before.queue.runKey)}) may have left jobs on the queue; this invocation plays the pending episodes here (a worker may play one too), and a later --queue rerun collects those still unrecorded`);
  const manifest: RunManifest = {
    runId,
    hosting: executor.hosting,
    ...(queue ? { queue } : {}),
    input,
    ...(notApplied ? { notApplied } : {}),
    config: r.config,
    protocol,
    plans,
    scenarios: used,
    skipped,
    startedAt,
    history,
    ...(isReplayed ? { isReplayed } : {}),
  };
  writeManifest(lock, manifest, { endedAt: null, stats: null });
  return { manifest, pending, rows: resumed.rows };
}

/** Hands the pending episodes to the executor and appends each record it returns; returns this invocation's records. */
async function playPending<Outcome extends object>(lock: RunLock, started: { manifest: RunManifest; pending: EpisodePlan[]; rows: EpisodeRow[] }, executor: RunExecutor<Outcome>, opts: LifecycleOptions): Promise<{ ran: EpisodeRecord[]; records: EpisodeRecord[]; outcome: Outcome }> {
  const { manifest: m, pending } = started;
  const names = new Map(m.scenarios.map((s) => [s.id, s.codename ?? s.id]));
  const progress = new ProgressReporter({
    ...(m.isReplayed ? { isReplayed: m.isReplayed } : {}),
    scenarioName: (id) => terminalSafe(names.get(id) ?? id),
    // The planned first draws and, on a resume, the re-draws a killed run left owed (pending holds both).
    total: m.skipped + pending.length,
    alreadyDone: m.skipped,
    log: opts.log,
    ...(opts.tty ? { tty: opts.tty } : {}),
    ...(opts.progressIntervalMs !== undefined ? { intervalMs: opts.progressIntervalMs } : {}),
  });
  const ran: EpisodeRecord[] = [];
  const appended: string[] = [];
  // What episodes.jsonl reads as now: the rows found at the start and this invocation's lines read back as
  // the file's lines are (no other writer appends while the lock is held), not the whole file again.
  let latest: { lines: number; records: EpisodeRecord[] } | undefined;
  const recordsNow = (): EpisodeRecord[] => {
    if (latest?.lines !== appended.length) latest = { lines: appended.length, records: recordsWithAppended(started.rows, appended) };
    return latest.records;
  };
  const record = (r: EpisodeRecord) => {
    // Marked as it is appended: a short draw under first-valid is superseded at once, so a kill after this line resumes its re-draw.
    const marked = markOnArrival(r, m.protocol);
    appended.push(appendEpisode(lock, marked));
    ran.push(marked);
    progress.episode(marked);
  };
  // Every plan handed out by episode id: a record's re-draw is the next draw of the plan it played.
  const handed = new Map<string, EpisodePlan>();
  const redrawAfter = (r: EpisodeRecord): EpisodePlan | undefined => {
    const plan = handed.get(r.episodeId);
    if (!plan?.idKey || markOnArrival(r, m.protocol).selection?.status !== 'superseded') return undefined;
    const next = drawOf(plan, (plan.draw ?? 0) + 1);
    handed.set(next.episodeId, next);
    progress.notice(`selection first-valid: re-drawing 1 episode with 5 or fewer moves (draw ${next.draw! + 1} of its instance)`);
    progress.addPlanned(1);
    return next;
  };
  const saveManifest = () => void writeManifest(lock, m, { endedAt: null, stats: null });
  try {
    let round: readonly EpisodePlan[] = pending;
    let outcome: Outcome;
    // Each round plays the re-draws the previous one made owed and left to the lifecycle (an executor that
    // takes them with redrawAfter plays them in its own round); draws only grow, so MAX_DRAWS rounds end it.
    for (let n = 0; ; n++) {
      for (const p of round) handed.set(p.episodeId, p);
      outcome = await executor.execute({ paths: lock.paths, lock, manifest: m, pending: round, record, notice: (line) => progress.notice(line), redrawAfter, saveManifest });
      if (opts.signal?.aborted || n >= MAX_DRAWS || !mayOweRedraws(m.plans)) break;
      round = owedRedraws(m.plans, new Map(recordsNow().map((r) => [r.episodeId, r])));
      if (!round.length) break;
      progress.notice(`selection first-valid: re-drawing ${round.length} episode(s) with 5 or fewer moves`);
      progress.addPlanned(round.length);
    }
    return { ran, records: recordsNow(), outcome };
  } finally {
    progress.close();
  }
}

/** `--redraw`: counted draws the judge could not score become superseded, so their re-draws are owed. */
function redrawUnscored(lock: RunLock, log: (line: string) => void, earlier: EpisodesRead): void {
  const { raws, changed } = markUnscored(readEpisodes(lock.paths, earlier).rows);
  if (changed) rewriteEpisodes(lock, raws);
  log(`--redraw: ${changed} counted episode(s) the judge could not score marked superseded`);
}

function uniqueScenarios(plans: readonly EpisodePlan[]): Scenario[] {
  const seen = new Map<string, Scenario>();
  for (const p of plans) if (!seen.has(p.scenario.id)) seen.set(p.scenario.id, p.scenario);
  return [...seen.values()];
}
