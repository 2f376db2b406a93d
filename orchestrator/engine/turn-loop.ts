import { ErrorCode, receiversOf, recipientProblem, type Action, type TurnAct, type TurnRecord } from '../../protocol/index.js';
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

export async function runTurnLoop(ctx: EngineContext): Promise<EngineResult> {
  const { world, clock, ports } = ctx;
  const { maxTurns, turnDeadlineMs, actions } = world.limits;
  const order = seatOrder(world);
  const protocol = protocolOf(world);
  const cap = turnCap(maxTurns, protocol);
  const startedAt = clock.now();
  const turns: TurnRecord[] = [];
  const errors: EpisodeError[] = [];
  const seatProvenance: Record<string, SeatProvenance> = Object.create(null) as Record<string, SeatProvenance>;
  const watch = new SeatWatch(ctx);
  const allowed = new Set<string>(actions);
  const hooks = ctx.hooks;
  /** When the previous turn's accepted act reached its connection (for `hooks.turnOverhead`). */
  let previousActAt: bigint | undefined;

  /** Keeps a turn for the record and tells the instrumentation (the watch feed) at once. */
  const keep = (record: TurnRecord) => {
    turns.push(record);
    hooks?.turnRecorded?.(world.episodeId, record);
  };
  const finish = (termination: Termination, status: EngineResult['status']): EngineResult => {
    flush();
    return { turns, termination, errors, status, seatProvenance, startedAt };
  };
  // A move's events and the next request are written together: one socket write per seat per turn.
  const hold = () => { for (const p of ports.values()) p.hold?.(); };
  const flush = () => { for (const p of ports.values()) p.flush?.(); };

  // A fork replays its parent's first turns (no seat is asked), then plays on from the fork turn.
  if (ctx.prefix) {
    // Kept one by one like live turns, so the watch feed shows the replayed part too.
    for (const r of replayPrefix(ctx.prefix, order, ports)) keep(r);
    const ended = turns.length ? terminationAfter(world.scenario, turns, maxTurns, protocol) : null;
    if (ended) return finish(ended, 'ok');
  }
  for (let t = turns.length; t < cap; t++) {
    // Round robin (or the speaker's pick), past seats that left: turn-order.ts.
    const seat = nextSpeaker(world.scenario, turns);
    if (seat === null) break;
    const port = ports.get(seat);
    if (!port) throw new Error(`no port for seat ${seat}`);
    const seatDeadlineMs = world.seatDeadlineMs?.[seat] ?? turnDeadlineMs;
    const deadlineAt = clock.now() + seatDeadlineMs;
    const request = () => port.send({ type: 'turn.request', turn: t, actions: [...actions], deadlineMs: Math.max(1, Math.round(deadlineAt - clock.now())) });
    request();
    flush();
    if (previousActAt !== undefined && hooks?.turnOverhead) hooks.turnOverhead(Number(process.hrtime.bigint() - previousActAt));
    previousActAt = undefined;
    for (;;) {
      const got = await watch.next(deadlineAt, (s) => { if (s === seat) request(); });
      if (got.kind === 'deadline') {
        const error = { code: ErrorCode.DeadlineMissed, message: `no move within ${seatDeadlineMs} ms` };
        keep({ turn: t, seat, action: null, error, atMs: clock.now() - startedAt });
        errors.push({ ...error, seat, turn: t });
        return finish({ reason: 'deadline', seat }, 'failed');
      }
      if (got.kind === 'disconnect') {
        errors.push({ code: got.code, message: got.detail, seat: got.seat, turn: t });
        return finish({ reason: 'disconnect', seat: got.seat, detail: got.detail }, 'failed');
      }
      const { frame } = got;
      const from = ports.get(got.seat)!;
      if (frame.type !== 'turn.act' && frame.type !== 'turn.fail') {
        from.reject(ErrorCode.UnexpectedFrame, `${frame.type} is not expected in ${world.mode} mode`, frame.id);
        continue;
      }
      if (got.seat !== seat) {
        from.reject(ErrorCode.NotYourTurn, `turn ${t} belongs to seat ${seat}`, frame.id);
        continue;
      }
      if (frame.turn !== t) {
        from.reject(ErrorCode.StaleTurn, `turn ${frame.turn} is not the current turn ${t}`, frame.id);
        continue;
      }
      seatProvenance[seat] = provenanceOf(frame.meta);
      const atMs = clock.now() - startedAt;
      // An unreadable reply under `--on-unparsable none`, or a provider's failure under `--on-provider-error
      // none`, is played as a `none` that keeps its failure (under `unparsable` or `providerError`).
      const asNone = frame.type === 'turn.fail' && allowed.has(UNPARSABLE_NONE.type) ? becomesNone(frame.error, protocol) : null;
      if (frame.type === 'turn.fail' && !asNone) {
        keep(withMeta({ turn: t, seat, action: null, error: frame.error, atMs }, frame.meta));
        errors.push({ ...frame.error, seat, turn: t });
        return finish({ reason: 'policy_error', seat, detail: frame.error.code }, 'failed');
      }
      if (frame.type === 'turn.act' && refusedMove(from, frame, allowed, seat, order)) continue;
      const action: Action = frame.type === 'turn.act' ? actionOf(frame.action) : { ...UNPARSABLE_NONE };
      const record = withMeta({ turn: t, seat, action, ...receivedBy(action, seat, order), atMs, ...(asNone && frame.type === 'turn.fail' ? { [asNone]: frame.error } : {}) }, frame.meta);
      keep(record);
      const event = observeTurn({ ...record, action });
      hold();
      for (const s of record.to ?? order) ports.get(s)!.send(event);
      previousActAt = got.receivedAt;
      hooks?.moveAccepted?.(world.episodeId, t, seat);
      const end = terminationAfter(world.scenario, turns, maxTurns, protocol);
      if (end) return finish(end, 'ok');
      break;
    }
  }
  return finish({ reason: 'max_turns' }, 'ok');
}
