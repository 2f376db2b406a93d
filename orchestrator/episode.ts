import { ErrorCode, type EpisodeRecord, type Limits, type SeatJoin, type SeatRecovery } from '../protocol/index.js';
import { definitionOf, type SimulationProtocol } from '../simulation/index.js';
import type { Clock, TimerHandle } from './clock.js';
import type { EngineHooks, EngineResult, EpisodeError } from './engine/engine-types.js';
import { runEngine } from './engine/run-engine.js';
import type { EpisodePlan } from './episode-plan.js';
import { buildEpisodeRecord } from './episode-record.js';
import { endScores, type EndScores, type EpisodeScorer } from './end-scores.js';
import { Inbox, type InboxEvent } from './inbox.js';
import { dealWorld, unplayedGame } from './game/deal-world.js';
import { judgeOnlyGuard } from './judge-guard.js';
import type { Ledger } from './ledger.js';
import type { ScriptedPrefix } from './engine/scripted-prefix.js';
import { observationFrames, observe, receivesJudgeOnly, revealFrames } from './observe.js';
import { SeatLink } from './seat-link.js';
import type { SeatRegistry } from './seat-registry.js';
import { liveSeats, type World } from './world.js';

export interface EpisodeDeps {
  registry: SeatRegistry;
  clock: Clock;
  runId: string;
  limits: Limits;
  /** The run's simulation protocol (absent: `parley`). */
  protocol?: SimulationProtocol;
  /** The ledger of a live seat (a file under the run directory; memory in unit tests). */
  ledgerFor(episodeId: string, seat: string): Ledger;
  /** How long the seats' tokens stay valid for a first join. */
  tokenTtlMs: number;
  /** Per-seat turn deadlines that differ from `limits` (human seats: `--human-deadline`). */
  seatDeadlineMs?: (plan: EpisodePlan) => Record<string, number> | undefined;
  /** Remote agents play the seats: what they report is labelled (see `SeatRecord.provenance`). */
  reportedProvenance?: 'reported' | 'trusted';
}

export interface RunOptions {
  /** Resolves with a reason if hosting failed before the seats joined (a worker died, released early). */
  abort?: Promise<string>;
  /** Pid of the process the supervisor gave each seat, cross-checked against the pid the seat reports. */
  hostPids?: ReadonlyMap<string, number>;
  /** Every seat event (frames, closes, rejoins) as the engine sees it: the supervisor watches for hung seats. */
  onSeatEvent?: (event: InboxEvent) => void;
  /** Seats re-established after a crash, for the record (filled by the supervisor while the episode runs). */
  recoveries?: readonly SeatRecovery[];
  hooks?: EngineHooks;
  /** Scores the episode as it ends, before its seats are told (`parley serve --judge`; end-scores.ts). */
  scorer?: EpisodeScorer;
}

/**
 * One episode from reservation to record. `prepare` builds the world, a link and ledger per live seat
 * and reserves their tokens (hosting them is the caller's job: the supervisor's workers, or remote
 * agents given the printed tokens); `run` waits for the joins, runs the engine, ends every seat and
 * returns the record. Nothing here knows about sockets or processes.
 */
export class Episode {
  readonly world: World;
  readonly links = new Map<string, SeatLink>();
  /** Token per live seat. */
  readonly tokens = new Map<string, string>();
  private readonly inbox: Inbox;
  private listener: ((event: InboxEvent) => void) | undefined;
  private markLost!: (why: string) => void;
  /** Resolves when a seat is reported lost (see `seatLost`). */
  private readonly lost = new Promise<string>((r) => (this.markLost = r));
  private played = 0;
  private t0 = 0;
  /** Per seat, the ledger line where a fork's live part begins (set once its prefix is replayed). */
  private liveFromLine: Record<string, number> | undefined;

  private constructor(readonly plan: EpisodePlan, private readonly deps: EpisodeDeps) {
    const seatDeadlineMs = deps.seatDeadlineMs?.(plan);
    // A game deals its roles here, seeded by the episode id: a rerun deals the same (game/deal-world.ts).
    const dealt = dealWorld(plan.scenario, plan.episodeId);
    this.world = { episodeId: plan.episodeId, scenario: dealt.scenario, mode: plan.mode, limits: deps.limits, ...(deps.protocol ? { protocol: deps.protocol } : {}), ...(seatDeadlineMs ? { seatDeadlineMs } : {}), ...(dealt.game ? { game: dealt.game } : {}) };
    this.inbox = new Inbox(deps.clock);
    const guard = judgeOnlyGuard(plan.scenario);
    for (const seat of liveSeats(this.world)) {
      // A seat lost before the start (closed for abuse, say) ends the wait for the others at once.
      const lifecycle = deps.registry.lifecycle(seat, deps.tokenTtlMs, (e) => { if (e.kind === 'lost') this.markLost(e.detail ?? `seat ${seat} lost`); });
      const link = new SeatLink({
        episodeId: plan.episodeId,
        seat,
        lifecycle,
        ledger: deps.ledgerFor(plan.episodeId, seat),
        initialFrames: observationFrames(observe(this.world, seat)),
        // No guard only where the run asked to reproduce SOTOPIA's environment view (--leak-judge-only).
        ...(receivesJudgeOnly(this.world, seat) ? {} : { guard }),
        onEvent: (e) => {
          this.inbox.push(e);
          this.listener?.(e);
        },
      });
      this.links.set(seat, link);
      this.tokens.set(seat, deps.registry.reserve(link));
    }
  }

  static prepare(plan: EpisodePlan, deps: EpisodeDeps): Episode {
    return new Episode(plan, deps);
  }

  /** Moves accepted so far: where the episode is, for recovery records. */
  get turnsPlayed(): number {
    return this.played;
  }

  /** Milliseconds since `run` started. */
  get elapsedMs(): number {
    return this.t0 ? Math.max(0, this.deps.clock.now() - this.t0) : 0;
  }

  /**
   * The supervisor reports that a seat will not come back (its process died and is not replaced, or
   * released the seat with an error): the episode ends now with `disconnect` and this reason, instead of
   * waiting out the reconnect grace. Before every seat joined, it aborts the start.
   */
  seatLost(seat: string, detail: string): void {
    this.links.get(seat)?.lifecycle.lose(detail);
    this.markLost(detail);
    this.inbox.push({ kind: 'lost', seat, detail });
  }

  /** Closes a seat's connection from this side (its process is gone or hung), so a replacement may rejoin. */
  dropConnection(seat: string, reason: string): void {
    this.links.get(seat)?.drop(reason);
  }

  async run(opts: RunOptions = {}): Promise<EpisodeRecord> {
    const { clock } = this.deps;
    const startedAtIso = new Date().toISOString();
    const t0 = clock.now();
    this.t0 = t0;
    this.listener = opts.onSeatEvent;
    const extraErrors: EpisodeError[] = [];
    let result: EngineResult;
    try {
      const joined = await this.awaitJoins(opts.abort);
      if (joined !== true) {
        extraErrors.push({ code: ErrorCode.NotJoined, message: joined });
        result = { turns: [], termination: { reason: 'disconnect', detail: joined }, errors: [], status: 'failed', seatProvenance: {}, startedAt: clock.now() };
      } else {
        this.crossCheckPids(opts.hostPids, extraErrors);
        for (const link of this.links.values()) link.lifecycle.start();
        const lifecycles = new Map([...this.links].map(([seat, l]) => [seat, l.lifecycle]));
        const prefix = this.scriptedPrefix();
        opts.hooks?.episodeStarted?.(this.world.episodeId);
        result = await runEngine({ world: this.world, ports: this.links, inbox: this.inbox, clock, lifecycles, hooks: this.countingHooks(opts.hooks), ...(prefix ? { prefix } : {}) })
          .catch((err: Error): EngineResult => ({
            // A bug, not an expected failure: recorded explicitly so the run goes on and the record says why.
            turns: [],
            termination: { reason: 'aborted', detail: err.message },
            errors: [{ code: ErrorCode.Internal, message: err.message }],
            status: 'failed',
            seatProvenance: {},
            startedAt: clock.now(),
          }));
      }
    } finally {
      this.listener = undefined;
      this.deps.registry.release(this.links.values());
    }
    // A game that could not play (a failed start, a script) still records the roles it dealt.
    if (this.world.game && !result.game) result.game = unplayedGame(this.world.game);
    const clients = new Map<string, SeatJoin['client'] | null>([...this.links].map(([seat, l]) => [seat, l.client]));
    const record = buildEpisodeRecord({
      plan: this.plan,
      runId: this.deps.runId,
      result,
      clients,
      pids: new Map([...this.links].map(([seat, l]) => [seat, [...l.pids]])),
      recoveries: [...(opts.recoveries ?? [])],
      seatEvents: [...this.links.values()].flatMap((l) => l.lifecycle.events).sort((a, b) => a.atMs - b.atMs),
      startedAtIso,
      ...(this.deps.reportedProvenance ? { provenance: this.deps.reportedProvenance } : {}),
      durationMs: Math.max(0, clock.now() - t0),
      extraErrors,
      spokenMoves: definitionOf(this.world.protocol?.name).engine.spokenMoves,
      ...(this.liveFromLine ? { liveFromLine: this.liveFromLine } : {}),
    });
    // Scored before the seats are told the end, so each seat's episode.end carries its own score.
    const scores = await this.endScores(record, opts);
    for (const link of this.links.values()) link.end(result.termination.reason, scores.seats.get(link.seat));
    await Promise.all([...this.links.values()].map((l) => l.closeLedger()));
    return scores.evaluation ? { ...record, evaluation: scores.evaluation } : record;
  }

  /** The task's verdict and, with a scorer (`serve --judge`), the judge's; the scorer stops when hosting is aborted. */
  private async endScores(record: EpisodeRecord, opts: RunOptions): Promise<EndScores> {
    const stop = new AbortController();
    void opts.abort?.then(() => stop.abort());
    return endScores(record, opts.scorer, { scenario: this.plan.scenario, protocol: this.world.protocol?.name, signal: stop.signal });
  }

  /** A fork's prefix for the engine: the parent's turns, the reveals, and where each ledger goes live. */
  private scriptedPrefix(): ScriptedPrefix | undefined {
    const fork = this.plan.fork;
    if (!fork) return undefined;
    return {
      turns: fork.prefix,
      reveals: revealFrames(this.world, fork.reveals),
      onLive: () => {
        this.played = fork.prefix.length;
        this.liveFromLine = Object.fromEntries([...this.links].map(([seat, l]) => [seat, l.ledgerLines]));
      },
    };
  }

  private countingHooks(hooks: EngineHooks | undefined): EngineHooks {
    return {
      ...hooks,
      moveAccepted: (episodeId, turn, seat) => {
        this.played = turn + 1;
        hooks?.moveAccepted?.(episodeId, turn, seat);
      },
    };
  }

  /** Every live seat joined → true; else why not (token TTL passed, hosting aborted). */
  private awaitJoins(abort?: Promise<string>): Promise<true | string> {
    const { clock, tokenTtlMs } = this.deps;
    let timer: TimerHandle | undefined;
    const missing = () => [...this.links.values()].filter((l) => l.client === null).map((l) => l.seat).join(', ');
    const expired = new Promise<string>((resolve) => {
      timer = clock.setTimeout(() => resolve(`seat(s) ${missing()} did not join within ${tokenTtlMs} ms`), tokenTtlMs);
    });
    const all = Promise.all([...this.links.values()].map((l) => l.joined)).then(() => true as const);
    const aborted = abort?.then((why) => `hosting failed before seat(s) ${missing()} joined: ${why}`);
    const lost = this.lost.then((why) => `hosting failed before seat(s) ${missing()} joined: ${why}`);
    return Promise.race([all, expired, lost, ...(aborted ? [aborted] : [])]).finally(() => {
      if (timer !== undefined) clock.clearTimeout(timer);
    });
  }

  private crossCheckPids(hostPids: ReadonlyMap<string, number> | undefined, errors: EpisodeError[]): void {
    if (!hostPids) return;
    for (const [seat, pid] of hostPids) {
      const reported = this.links.get(seat)?.client?.pid;
      if (reported !== undefined && reported !== pid) {
        errors.push({ code: ErrorCode.PidMismatch, message: `seat reported pid ${reported}, the supervisor forked pid ${pid}`, seat });
      }
    }
  }
}
