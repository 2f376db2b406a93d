import type { Action, GameFact } from '../../protocol/index.js';
import type { GameDefinition, GamePhase } from './definition.js';
import { teamOf, type Deal } from './deal.js';

/** What a move did: its target, or why it counts for nothing; an inspection's result for the actor alone. */
export type MoveOutcome = { valid: true; target: string; private?: GameFact } | { valid: false; reason: string };

/** A notice the game gives: its words, its fact, and its audience (absent: everyone). */
export interface GameEvent {
  text: string;
  fact: GameFact;
  to?: string[];
}

/**
 * The state of one game as only the orchestrator holds it, and the rules that move it: who acts in a
 * phase, who receives an act, what a move does, how a night and a vote resolve, and whether a side has
 * won. Pure (no I/O); the engine (orchestrator/engine/game-loop.ts) drives it and records what it says.
 */
export class GameState {
  readonly alive: string[];
  round = 1;
  private attacks: Array<{ actor: string; target: string }> = [];
  private protects = new Set<string>();
  private ballots = new Map<string, string | null>();
  readonly out: Array<{ seat: string; how: 'vote' | 'night'; round: number }> = [];
  readonly votes: Array<{ round: number; voter: string; target: string | null }> = [];
  readonly inspections: Array<{ round: number; seer: string; target: string }> = [];

  constructor(readonly def: GameDefinition, readonly deal: Deal, readonly seats: readonly string[], private readonly names: ReadonlyMap<string, readonly string[]> = new Map()) {
    this.alive = [...seats];
  }

  team(seat: string): string {
    return teamOf(this.def, this.deal, seat);
  }

  /** Seats still in play that act in `phase`, in seat order. */
  actors(phase: GamePhase): string[] {
    return this.alive.filter((s) => phase.actors === 'all' || phase.actors.roles.includes(this.deal.roles[s]!));
  }

  /** Who receives an act in `phase` by `actor`: null for everyone; else the actor's teammates in play, or the actor alone. */
  recipients(phase: GamePhase, actor: string): string[] | null {
    if (phase.channel === 'public') return null;
    if (phase.channel === 'private') return [actor];
    return this.alive.filter((s) => s === actor || this.team(s) === this.team(actor));
  }

  /** The seats `actor` may target with the phase's move. */
  targets(phase: GamePhase, actor: string): string[] {
    const rule = phase.move?.targets ?? 'any';
    return this.alive.filter((s) => rule === 'any' || (rule === 'others' ? s !== actor : this.team(s) !== this.team(actor)));
  }

  /** Reads `verb TARGET` from a move and applies it; anything else counts for nothing (said in `reason`). */
  move(phase: GamePhase, actor: string, action: Action): MoveOutcome {
    const spec = phase.move!;
    const target = this.readTarget(spec.verb, action);
    const outcome = this.checkTarget(phase, actor, target);
    if (spec.effect === 'vote') {
      const t = outcome.valid ? outcome.target : null;
      this.ballots.set(actor, t);
      this.votes.push({ round: this.round, voter: actor, target: t });
    }
    if (!outcome.valid) return outcome;
    const t = outcome.target;
    if (spec.effect === 'attack') this.attacks.push({ actor, target: t });
    if (spec.effect === 'protect') this.protects.add(t);
    if (spec.effect === 'inspect') {
      this.inspections.push({ round: this.round, seer: actor, target: t });
      const team = this.team(t);
      const teamName = this.def.teams.find((x) => x.id === team)!.name;
      return { valid: true, target: t, private: { kind: 'inspected', seat: t, team, teamName } };
    }
    return outcome;
  }

  private readTarget(verb: string, action: Action): string | null {
    if (action.type !== 'action') return null;
    const m = new RegExp(`^\\s*${verb}\\s*[:\\-]?\\s*(.+?)\\s*\\.?\\s*$`, 'i').exec(action.argument);
    if (!m) return null;
    const said = m[1]!.toLowerCase();
    return this.seats.find((s) => s.toLowerCase() === said || (this.names.get(s) ?? []).some((n) => n.toLowerCase() === said)) ?? null;
  }

  private checkTarget(phase: GamePhase, actor: string, target: string | null): MoveOutcome {
    if (target === null) return { valid: false, reason: `not a move of this phase: write "${phase.move!.verb} <player>"` };
    if (!this.targets(phase, actor).includes(target)) return { valid: false, reason: `${target} cannot be targeted now` };
    return { valid: true, target };
  }

  /** Settles a phase that resolves (a night, a vote): who is out, told to everyone. */
  resolve(phase: GamePhase): GameEvent[] {
    if (phase.resolve === 'night') return this.resolveNight();
    if (phase.resolve === 'vote') return this.resolveVote();
    return [];
  }

  private resolveNight(): GameEvent[] {
    // The team's choice: the most named; a split team follows the first of the tied names it gave.
    const named = this.attacks.map((a) => a.target);
    const victim = plurality(named) ?? named.find((n) => named.filter((x) => x === n).length === Math.max(...named.map((m) => named.filter((x) => x === m).length))) ?? null;
    const saved = victim !== null && this.protects.has(victim);
    this.attacks = [];
    this.protects.clear();
    if (victim === null || saved) return [{ text: 'Dawn: nobody died in the night.', fact: { kind: 'nobody_out', how: 'night' } }];
    return [this.eliminate(victim, 'night')];
  }

  private resolveVote(): GameEvent[] {
    const ballots = Object.fromEntries(this.ballots);
    this.ballots.clear();
    const cast = Object.entries(ballots).map(([v, t]) => `${v} → ${t ?? 'no valid vote'}`).join(', ');
    const events: GameEvent[] = [{ text: `The ballots: ${cast}.`, fact: { kind: 'ballots', ballots } }];
    const chosen = plurality(Object.values(ballots).filter((t): t is string => t !== null));
    if (chosen === null) events.push({ text: 'The vote is tied or empty: nobody is out.', fact: { kind: 'nobody_out', how: 'vote' } });
    else events.push(this.eliminate(chosen, 'vote'));
    return events;
  }

  private eliminate(seat: string, how: 'vote' | 'night'): GameEvent {
    this.alive.splice(this.alive.indexOf(seat), 1);
    this.out.push({ seat, how, round: this.round });
    const reveal = how === 'vote' ? this.def.reveals.roleOnVote : this.def.reveals.roleOnNight;
    const role = this.def.roles.find((r) => r.id === this.deal.roles[seat])!;
    const fact: GameFact = reveal ? { kind: 'out', seat, how, role: role.id, team: role.team } : { kind: 'out', seat, how };
    const what = how === 'vote' ? `${seat} is voted out` : `${seat} was killed in the night`;
    return { text: reveal ? `${what}; they were ${article(role.name)}.` : `${what}.`, fact };
  }

  /** The side that has won now, by the definition's win rules in order, or null. */
  winner(): { team: string; message: string } | null {
    for (const rule of this.def.win) {
      const members = this.alive.filter((s) => this.team(s) === rule.team).length;
      const others = this.alive.length - members;
      if (rule.when === 'eliminated' && members === 0) return { team: rule.winner, message: rule.message };
      if (rule.when === 'parity' && members > 0 && members >= others) return { team: rule.winner, message: rule.message };
    }
    return null;
  }
}

/** The one most-named seat; null when none was named or the top is shared (a tie puts nobody out). */
export function plurality(names: readonly string[]): string | null {
  const counts = new Map<string, number>();
  for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
  const top = Math.max(0, ...counts.values());
  const leaders = [...counts].filter(([, c]) => c === top).map(([n]) => n);
  return leaders.length === 1 ? leaders[0]! : null;
}

function article(name: string): string {
  return /^[aeiou]/i.test(name) ? `an ${name}` : `a ${name}`;
}
