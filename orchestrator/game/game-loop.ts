import { ErrorCode, type Action, type GameFact, type GameRecord, type GameStep, type TurnRecord } from '../../protocol/index.js';
import { GameDriver, GameState, type GameDefinition, type GamePhase, type PhasedEvent } from '../../simulation/games/index.js';
import { provenanceOf, withMeta, type EngineContext, type EngineResult, type EpisodeError, type SeatProvenance } from '../engine/engine-types.js';
import { SeatWatch } from '../engine/seat-watch.js';
import { becomesNone, UNPARSABLE_NONE } from '../engine/unparsable.js';
import { protocolOf, seatOrder } from '../world.js';
import type { WorldGame } from './deal-world.js';
import { gameRecord } from './game-record.js';

/** Why a game stopped before a side won: the episode's termination and status. */
type Stop = Pick<EngineResult, 'termination' | 'status'>;

/**
 * A hidden-role game episode (`agents` / `mindreaders`): the definition's phases, round after round,
 * until a win rule holds or the rounds run out (the game's `maxRounds`, or `--max-turns`, which counts
 * rounds in a game). In each phase every seat still in play that the phase names acts once, in seat
 * order; its act reaches only the phase's channel (everyone, its team, or itself), so a werewolf's team
 * message and a seer's look are never in another seat's frames or ledger. The moderator's notices
 * (`game.notice`) open each phase, settle nights and votes, and tell an inspecting seat alone what it found.
 */
export function runGameLoop(ctx: EngineContext, game: WorldGame): Promise<EngineResult> {
  if (ctx.prefix) throw new Error('a game episode cannot replay a prefix (forks of games are not supported)');
  return new GameLoop(ctx, game).run();
}

class GameLoop {
  private readonly turns: TurnRecord[] = [];
  private readonly errors: EpisodeError[] = [];
  private readonly seatProvenance: Record<string, SeatProvenance> = Object.create(null) as Record<string, SeatProvenance>;
  private readonly watch: SeatWatch;
  private readonly state: GameState;
  private readonly startedAt: number;
  private readonly order: string[];
  private notices = 0;

  constructor(private readonly ctx: EngineContext, private readonly game: WorldGame) {
    this.watch = new SeatWatch(ctx);
    this.startedAt = ctx.clock.now();
    this.order = seatOrder(ctx.world);
    const names = new Map(ctx.world.scenario.seats.map((s) => [s.seat, [s.character.name, ...(s.character.firstName ? [s.character.firstName] : [])]]));
    this.state = new GameState(game.def, game.deal, this.order, names);
  }

  private get def(): GameDefinition {
    return this.game.def;
  }

  async run(): Promise<EngineResult> {
    const driver = new GameDriver(this.state, Math.min(this.def.maxRounds, this.ctx.world.limits.maxTurns));
    for (;;) {
      const said: PhasedEvent[] = [];
      const next = driver.advance(said);
      for (const e of said) this.notice(e.phase, e);
      if (next.kind === 'end') return this.finish({ termination: { reason: next.how === 'win' ? 'task_end' : 'max_turns', detail: `${next.winner} won` }, status: 'ok' }, next.winner, next.how);
      const played = await this.ask(next.actor, next.phase, next.round);
      if (played.kind === 'stop') return this.finish(played.stop, null, 'stopped');
      for (const e of driver.play(played.action)) this.notice(next.phase, e);
    }
  }

  /** Sends a notice to its audience (everyone when `to` is absent), numbered in the episode. */
  private notice(phase: GamePhase | null, e: { text: string; fact: GameFact; to?: string[] }): void {
    const frame = { type: 'game.notice' as const, n: this.notices++, at: this.turns.length, round: this.state.round, phase: phase?.id ?? 'end', text: e.text, alive: [...this.state.alive], fact: e.fact, ...(e.to ? { to: [...e.to] } : {}) };
    for (const s of e.to ?? this.order) this.ctx.ports.get(s)!.send(frame);
  }

  private step(actor: string, phase: GamePhase, round: number): GameStep {
    const to = this.state.recipients(phase, actor);
    return {
      phase: phase.id,
      title: phase.title,
      round,
      act: phase.act,
      ...(to ? { to } : {}),
      ...(phase.move ? { move: { verb: phase.move.verb, effect: phase.move.effect, targets: this.state.targets(phase, actor) } } : {}),
    };
  }

  /** Asks one seat for its act in `phase` and plays it; a Stop when the seat failed, left or missed its deadline. */
  private async ask(actor: string, phase: GamePhase, round: number): Promise<{ kind: 'stop'; stop: Stop } | { kind: 'played'; action: Action }> {
    const { world, clock, ports } = this.ctx;
    const t = this.turns.length;
    const port = ports.get(actor)!;
    const seatDeadlineMs = world.seatDeadlineMs?.[actor] ?? world.limits.turnDeadlineMs;
    const deadlineAt = clock.now() + seatDeadlineMs;
    const actions = phase.act === 'speak' ? (['speak', 'none'] as const) : (['action', 'none'] as const);
    const game = this.step(actor, phase, round);
    const request = () => port.send({ type: 'turn.request', turn: t, actions: [...actions], deadlineMs: Math.max(1, Math.round(deadlineAt - clock.now())), game });
    request();
    for (;;) {
      const got = await this.watch.next(deadlineAt, (s) => { if (s === actor) request(); });
      if (got.kind === 'deadline') {
        const error = { code: ErrorCode.DeadlineMissed, message: `no move within ${seatDeadlineMs} ms` };
        this.keep({ turn: t, seat: actor, action: null, error, atMs: clock.now() - this.startedAt, phase: phase.id });
        this.errors.push({ ...error, seat: actor, turn: t });
        return { kind: 'stop', stop: { termination: { reason: 'deadline', seat: actor }, status: 'failed' } };
      }
      if (got.kind === 'disconnect') {
        this.errors.push({ code: got.code, message: got.detail, seat: got.seat, turn: t });
        return { kind: 'stop', stop: { termination: { reason: 'disconnect', seat: got.seat, detail: got.detail }, status: 'failed' } };
      }
      const { frame } = got;
      const from = ports.get(got.seat)!;
      if (frame.type !== 'turn.act' && frame.type !== 'turn.fail') { from.reject(ErrorCode.UnexpectedFrame, `${frame.type} is not expected in a game`, frame.id); continue; }
      if (got.seat !== actor) { from.reject(ErrorCode.NotYourTurn, `turn ${t} belongs to seat ${actor}`, frame.id); continue; }
      if (frame.turn !== t) { from.reject(ErrorCode.StaleTurn, `turn ${frame.turn} is not the current turn ${t}`, frame.id); continue; }
      if (frame.type === 'turn.act' && !(actions as readonly string[]).includes(frame.action.type)) {
        from.reject(ErrorCode.ActionNotAllowed, `action type '${frame.action.type}' is not allowed in ${phase.title} (allowed: ${actions.join(', ')})`, frame.id);
        continue;
      }
      this.seatProvenance[actor] = provenanceOf(frame.meta);
      const asNone = frame.type === 'turn.fail' ? becomesNone(frame.error, protocolOf(world)) : null;
      const atMs = clock.now() - this.startedAt;
      if (frame.type === 'turn.fail' && !asNone) {
        this.keep(withMeta({ turn: t, seat: actor, action: null, error: frame.error, atMs, phase: phase.id }, frame.meta));
        this.errors.push({ ...frame.error, seat: actor, turn: t });
        return { kind: 'stop', stop: { termination: { reason: 'policy_error', seat: actor, detail: frame.error.code }, status: 'failed' } };
      }
      const action: Action = frame.type === 'turn.act' ? { type: frame.action.type, argument: frame.action.argument } : { ...UNPARSABLE_NONE };
      const to = game.to;
      this.keep(withMeta({ turn: t, seat: actor, action, atMs, phase: phase.id, ...(to ? { to: [...to] } : {}), ...(asNone && frame.type === 'turn.fail' ? { [asNone]: frame.error } : {}) }, frame.meta));
      for (const s of to ?? this.order) ports.get(s)!.send({ type: 'turn.event', turn: t, seat: actor, action, ...(to ? { to: [...to] } : {}) });
      this.ctx.hooks?.moveAccepted?.(world.episodeId, t, actor);
      return { kind: 'played', action };
    }
  }

  private keep(record: TurnRecord): void {
    this.turns.push(record);
    this.ctx.hooks?.turnRecorded?.(this.ctx.world.episodeId, record);
  }

  private finish(stop: Stop, winner: string | null, how: GameRecord['how']): EngineResult {
    const game = gameRecord(this.game, this.ctx.world.scenario, this.state, winner, how);
    return { turns: this.turns, errors: this.errors, seatProvenance: this.seatProvenance, startedAt: this.startedAt, game, ...stop };
  }
}
