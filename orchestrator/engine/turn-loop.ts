import { ErrorCode, receiversOf, recipientProblem, type Action, type TurnAct, type TurnRecord } from '../../protocol/index.js';
import type { EpisodeFrame } from '../inbox.js';
import { observeTurn } from '../observe.js';
import { protocolOf, seatOrder } from '../world.js';
import { provenanceOf, withMeta, type EngineContext, type EngineResult, type EpisodeError, type SeatPort, type SeatProvenance } from './engine-types.js';
import { replayPrefix } from './scripted-prefix.js';
import { SeatWatch } from './seat-watch.js';
import { nextSpeaker } from './turn-order.js';
import { terminationAfter, turnCap, type Termination } from './termination.js';
import { becomesNone, UNPARSABLE_NONE } from './unparsable.js';

/**
 * The `agents` / `mindreaders` episode: round-robin turns in seat order (turn-order.ts: past seats that
 * left, or the speaker's pick). Each turn sends `turn.request` to one seat and waits for its `turn.act` (or `turn.fail`) until the deadline; an accepted move is
 * echoed to every seat as `turn.event`, a private one (`action.to`) to its speaker and recipients only. Frames for another seat's turn or a stale turn are refused
 * with an `error` frame and the wait goes on; the episode itself is not disturbed by them.
 */
export async function runTurnLoop(ctx: EngineContext): Promise<EngineResult> {
  const loop = new TurnLoop(ctx);
  // A fork replays its parent's first turns (no seat is asked), then plays on from the fork turn.
  if (ctx.prefix) {
    // Kept one by one like live turns, so the watch feed shows the replayed part too.
    for (const r of replayPrefix(ctx.prefix, loop.order, ctx.ports)) loop.keep(r);
    const ended = loop.turns.length ? loop.terminationNow() : null;
    if (ended) return loop.finish(ended, 'ok');
  }
  const cap = turnCap(ctx.world.limits.maxTurns, loop.protocol);
  for (let t = loop.turns.length; t < cap; t++) {
    // Round robin (or the speaker's pick), past seats that left: turn-order.ts.
    const seat = nextSpeaker(ctx.world.scenario, loop.turns);
    if (seat === null) break;
    const ended = await playTurn(loop, t, seat);
    if (ended) return ended;
  }
  return loop.finish({ reason: 'max_turns' }, 'ok');
}

/** What one episode's loop keeps between turns: the record so far and the ports' write batching. */
class TurnLoop {
  readonly order: string[];
  readonly protocol: ReturnType<typeof protocolOf>;
  readonly startedAt: number;
  readonly turns: TurnRecord[] = [];
  readonly errors: EpisodeError[] = [];
  readonly seatProvenance: Record<string, SeatProvenance> = Object.create(null) as Record<string, SeatProvenance>;
  readonly watch: SeatWatch;
  readonly allowed: Set<string>;
  /** When the previous turn's accepted act reached its connection (for `hooks.turnOverhead`). */
  previousActAt: bigint | undefined;

  constructor(readonly ctx: EngineContext) {
    this.order = seatOrder(ctx.world);
    this.protocol = protocolOf(ctx.world);
    this.startedAt = ctx.clock.now();
    this.watch = new SeatWatch(ctx);
    this.allowed = new Set<string>(ctx.world.limits.actions);
  }

  /** Milliseconds since the episode started (a turn record's `atMs`). */
  elapsed(): number {
    return this.ctx.clock.now() - this.startedAt;
  }

  /** Keeps a turn for the record and tells the instrumentation (the watch feed) at once. */
  keep(record: TurnRecord): void {
    this.turns.push(record);
    this.ctx.hooks?.turnRecorded?.(this.ctx.world.episodeId, record);
  }

  /** Whether the turns so far end the episode (a leave, the stale rule, a task end, the turn limit). */
  terminationNow(): Termination | null {
    return terminationAfter(this.ctx.world.scenario, this.turns, this.ctx.world.limits.maxTurns, this.protocol);
  }

  finish(termination: Termination, status: EngineResult['status']): EngineResult {
    this.flush();
    const { turns, errors, seatProvenance, startedAt } = this;
    return { turns, termination, errors, status, seatProvenance, startedAt };
  }

  // A move's events and the next request are written together: one socket write per seat per turn.
  hold(): void {
    for (const p of this.ctx.ports.values()) p.hold?.();
  }

  /**
   * Writes what `hold` batched. `first`: the seat just asked for its move, written before the others (the
   * speaker's own echo waits): its process wakes first, and on two cores the echo's reader does not take
   * the other core ahead of it (bench/agent-profile.md, fourteenth pass).
   */
  flush(first?: string): void {
    if (first !== undefined) this.ctx.ports.get(first)?.flush?.();
    for (const p of this.ctx.ports.values()) p.flush?.();
  }
}

/** One turn: asks `seat` for its move and waits until it comes, the deadline passes or a seat is lost. */
async function playTurn(loop: TurnLoop, t: number, seat: string): Promise<EngineResult | null> {
  const { world, clock, ports, hooks } = loop.ctx;
  const port = ports.get(seat);
  if (!port) throw new Error(`no port for seat ${seat}`);
  const seatDeadlineMs = world.seatDeadlineMs?.[seat] ?? world.limits.turnDeadlineMs;
  const deadlineAt = clock.now() + seatDeadlineMs;
  const request = () => port.send({ type: 'turn.request', turn: t, actions: [...world.limits.actions], deadlineMs: Math.max(1, Math.round(deadlineAt - clock.now())) });
  request();
  loop.flush(seat);
  if (loop.previousActAt !== undefined && hooks?.turnOverhead) hooks.turnOverhead(Number(process.hrtime.bigint() - loop.previousActAt));
  loop.previousActAt = undefined;
  for (;;) {
    const got = await loop.watch.next(deadlineAt, (s) => { if (s === seat) request(); });
    if (got.kind === 'deadline') {
      const error = { code: ErrorCode.DeadlineMissed, message: `no move within ${seatDeadlineMs} ms` };
      loop.keep({ turn: t, seat, action: null, error, atMs: loop.elapsed() });
      loop.errors.push({ ...error, seat, turn: t });
      return loop.finish({ reason: 'deadline', seat }, 'failed');
    }
    if (got.kind === 'disconnect') {
      loop.errors.push({ code: got.code, message: got.detail, seat: got.seat, turn: t });
      return loop.finish({ reason: 'disconnect', seat: got.seat, detail: got.detail }, 'failed');
    }
    const from = ports.get(got.seat)!;
    const frame = screenFrame(loop, from, got.frame, got.seat, t, seat);
    if (!frame) continue;
    const outcome = takeMove(loop, from, frame, t, seat, got.receivedAt);
    if (outcome !== 'refused') return outcome;
  }
}

type MoveFrame = Extract<EpisodeFrame, { type: 'turn.act' | 'turn.fail' }>;

/** The frame as the current turn's move, or null when it is refused (answered with an `error` frame). */
function screenFrame(loop: TurnLoop, from: SeatPort, frame: EpisodeFrame, sender: string, t: number, seat: string): MoveFrame | null {
  if (frame.type !== 'turn.act' && frame.type !== 'turn.fail') {
    from.reject(ErrorCode.UnexpectedFrame, `${frame.type} is not expected in ${loop.ctx.world.mode} mode`, frame.id);
    return null;
  }
  if (sender !== seat) {
    from.reject(ErrorCode.NotYourTurn, `turn ${t} belongs to seat ${seat}`, frame.id);
    return null;
  }
  if (frame.turn !== t) {
    from.reject(ErrorCode.StaleTurn, `turn ${frame.turn} is not the current turn ${t}`, frame.id);
    return null;
  }
  return frame;
}

/**
 * Records the seat's move for turn `t` and echoes it to every seat: the episode's end if it ends here,
 * null when play goes on, `refused` for an action type the episode does not allow (the wait goes on).
 */
function takeMove(loop: TurnLoop, from: SeatPort, frame: MoveFrame, t: number, seat: string, receivedAt: bigint | undefined): EngineResult | null | 'refused' {
  const { world, ports, hooks } = loop.ctx;
  loop.seatProvenance[seat] = provenanceOf(frame.meta);
  const atMs = loop.elapsed();
  // An unreadable reply under `--on-unparsable none`, or a provider's failure under `--on-provider-error
  // none`, is played as a `none` that keeps its failure (under `unparsable` or `providerError`).
  const asNone = frame.type === 'turn.fail' && loop.allowed.has(UNPARSABLE_NONE.type) ? becomesNone(frame.error, loop.protocol) : null;
  if (frame.type === 'turn.fail' && !asNone) {
    loop.keep(withMeta({ turn: t, seat, action: null, error: frame.error, atMs }, frame.meta));
    loop.errors.push({ ...frame.error, seat, turn: t });
    return loop.finish({ reason: 'policy_error', seat, detail: frame.error.code }, 'failed');
  }
  if (frame.type === 'turn.act' && refusedMove(from, frame, loop.allowed, seat, loop.order)) return 'refused';
  const action: Action = frame.type === 'turn.act' ? actionOf(frame.action) : { ...UNPARSABLE_NONE };
  const record = withMeta({ turn: t, seat, action, ...receivedBy(action, seat, loop.order), atMs, ...(asNone && frame.type === 'turn.fail' ? { [asNone]: frame.error } : {}) }, frame.meta);
  loop.keep(record);
  const event = observeTurn({ ...record, action });
  loop.hold();
  for (const s of record.to ?? loop.order) ports.get(s)!.send(event);
  loop.previousActAt = receivedAt;
  hooks?.moveAccepted?.(world.episodeId, t, seat);
  const end = loop.terminationNow();
  return end ? loop.finish(end, 'ok') : null;
}

/**
 * Refuses a seat's move with a coded `error` frame when its type is not allowed or its recipients are
 * wrong for the episode (protocol/action.ts `recipientProblem`); true when refused (the wait goes on).
 */
function refusedMove(from: SeatPort, frame: TurnAct, allowed: ReadonlySet<string>, seat: string, order: readonly string[]): boolean {
  const { action } = frame;
  if (!allowed.has(action.type)) {
    from.reject(ErrorCode.ActionNotAllowed, `action type '${action.type}' is not allowed`, frame.id);
    return true;
  }
  const problem = recipientProblem(action, seat, order);
  if (problem) from.reject(ErrorCode.BadRecipients, problem, frame.id);
  return problem !== null;
}

/**
 * A private move's record field `to`: the seats that receive it (protocol/action.ts `receiversOf`), which
 * are the only ports its `turn.event` is sent to. Nothing for a public move, which every seat receives.
 */
function receivedBy(action: Action, seat: string, order: readonly string[]): { to?: string[] } {
  return action.to === undefined ? {} : { to: receiversOf(action, seat, order) };
}

/** The move as recorded: its fields only (a private one keeps its recipients), nothing else the frame held. */
function actionOf(sent: Action): Action {
  return sent.to === undefined ? { type: sent.type, argument: sent.argument } : { type: sent.type, argument: sent.argument, to: [...sent.to] };
}
