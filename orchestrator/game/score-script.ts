import type { TurnRecord } from '../../protocol/index.js';
import { GameDriver, GameState } from '../../simulation/games/index.js';
import type { EngineResult } from '../engine/engine-types.js';
import { seatOrder, type World } from '../world.js';
import type { WorldGame } from './deal-world.js';
import { gameRecord } from './game-record.js';

/**
 * Script mode of a game: the writer was given every seat's card (the whole state) and wrote the game in
 * one call; its turns are played through the same rules as a live game (simulation/games/driver.ts). Each
 * written turn must be the act of the seat whose turn it is; the first one that is not, or a script that
 * ends before a side wins, stops the game there without a winner (`how: stopped`). The turns the rules
 * used are marked with their phase and, for a team or private act, whom it reached.
 */
export function scoreScriptedGame(world: World, game: WorldGame, result: EngineResult): EngineResult {
  if (result.status !== 'ok') return result;
  const names = new Map(world.scenario.seats.map((s) => [s.seat, [s.character.name, ...(s.character.firstName ? [s.character.firstName] : [])]]));
  const state = new GameState(game.def, game.deal, seatOrder(world), names);
  const driver = new GameDriver(state, Math.min(game.def.maxRounds, world.limits.maxTurns));
  const turns: TurnRecord[] = result.turns.map((t) => ({ ...t }));
  for (let i = 0; ; i++) {
    const next = driver.advance([]);
    if (next.kind === 'end') {
      const termination = { reason: next.how === 'win' ? ('task_end' as const) : ('max_turns' as const), detail: `${next.winner} won` };
      return { ...result, turns: turns.slice(0, i), termination, game: gameRecord(game, world.scenario, state, next.winner, next.how) };
    }
    const turn = turns[i];
    if (!turn?.action || turn.seat !== next.actor) return { ...result, turns, game: gameRecord(game, world.scenario, state, null, 'stopped') };
    const to = state.recipients(next.phase, next.actor);
    turns[i] = { ...turn, phase: next.phase.id, ...(to ? { to } : {}) };
    driver.play(turn.action);
  }
}
