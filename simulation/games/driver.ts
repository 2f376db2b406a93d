import type { Action } from '../../protocol/index.js';
import type { GamePhase } from './definition.js';
import type { GameEvent, GameState } from './state.js';

/** A notice with the phase it belongs to (null: the game's end). */
export type PhasedEvent = GameEvent & { phase: GamePhase | null };

/** What comes next: a seat to ask for its act in a phase, or the end of the game. */
export type DriverStep =
  | { kind: 'ask'; actor: string; phase: GamePhase; round: number }
  | { kind: 'end'; winner: string; message: string; how: 'win' | 'timeout' };

/**
 * The order of play of a game, as one pure driver shared by the live game loop and the scoring of a
 * written script (so both play by the same rules): round after round, each phase announced, each of its
 * actors asked once in seat order, the phase resolved, the win rules checked, until a side wins or
 * `maxRounds` run out (then the definition's timeout side wins).
 */
export class GameDriver {
  private round = 1;
  private phaseIndex = 0;
  private queue: string[] = [];
  private open = false;

  constructor(readonly state: GameState, private readonly maxRounds: number) {}

  /** Moves to the next step; the notices produced on the way (announcements, resolutions, the end) go to `out`. */
  advance(out: PhasedEvent[]): DriverStep {
    const phases = this.state.def.phases;
    for (;;) {
      const phase = phases[this.phaseIndex]!;
      if (this.queue.length) return { kind: 'ask', actor: this.queue[0]!, phase, round: this.round };
      if (this.open) {
        this.open = false;
        for (const e of this.state.resolve(phase)) out.push({ ...e, phase });
        const won = this.state.winner();
        if (won) return this.end(out, { kind: 'end', winner: won.team, message: won.message, how: 'win' });
        this.phaseIndex += 1;
      }
      if (this.phaseIndex >= phases.length) {
        this.phaseIndex = 0;
        this.round += 1;
      }
      if (this.round > this.maxRounds) {
        const team = this.state.def.teams.find((t) => t.id === this.state.def.timeoutWinner)!;
        return this.end(out, { kind: 'end', winner: team.id, message: `The rounds have run out: ${team.name} win.`, how: 'timeout' });
      }
      const next = phases[this.phaseIndex]!;
      this.state.round = this.round;
      const actors = this.state.actors(next);
      if (!actors.length) {
        this.phaseIndex += 1;
        continue;
      }
      out.push({ text: next.announce.replace('{round}', String(this.round)), fact: { kind: 'phase' }, phase: next });
      this.queue = actors;
      this.open = true;
    }
  }

  private end(out: PhasedEvent[], step: Extract<DriverStep, { kind: 'end' }>): DriverStep {
    out.push({ text: step.message, fact: { kind: 'end', winner: step.winner }, phase: null });
    return step;
  }

  /** Plays the asked seat's act; a move's private result (an inspection, a void move) is returned for the actor alone. */
  play(action: Action): GameEvent[] {
    const actor = this.queue.shift();
    if (actor === undefined) throw new Error('GameDriver.play: nobody was asked');
    const phase = this.state.def.phases[this.phaseIndex]!;
    if (phase.act !== 'move') return [];
    const outcome = this.state.move(phase, actor, action);
    if (!outcome.valid) return [{ text: `Your move counts for nothing: ${outcome.reason}.`, fact: { kind: 'void', reason: outcome.reason }, to: [actor] }];
    if (outcome.private?.kind === 'inspected') {
      const f = outcome.private;
      return [{ text: `You looked into ${f.seat}: they are with ${f.teamName}.`, fact: f, to: [actor] }];
    }
    return [];
  }
}
