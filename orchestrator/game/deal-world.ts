import type { GameRecord } from '../../protocol/index.js';
import { dealRoles, gameCard, gameDefinition, type Deal, type GameDefinition } from '../../simulation/games/index.js';
import type { Scenario } from '../../scenarios/model.js';

/** A game episode's rules and the roles as dealt: held by the orchestrator only (World.game). */
export interface WorldGame {
  def: GameDefinition;
  deal: Deal;
}

/**
 * The scenario a game episode is played on: the file's scenario with every seat's role card dealt into
 * its private task and its goal, seeded by the episode id. `observe()` then projects each seat's card
 * to that seat alone, like any private task; the judge and the script writer, who see every seat, see
 * every card. Not a game: the scenario as it is.
 */
export function dealWorld(scenario: Scenario, episodeId: string): { scenario: Scenario; game?: WorldGame } {
  if (scenario.truth?.kind !== 'game') return { scenario };
  const def = gameDefinition(scenario.truth.game);
  if (!def) throw new Error(`scenario ${scenario.id} names an unknown game ${scenario.truth.game}`);
  const deal = dealRoles(def, scenario.seats.map((s) => s.seat), episodeId);
  const seats = scenario.seats.map((s) => {
    const card = gameCard(def, deal, s.seat);
    const role = def.roles.find((r) => r.id === card.role)!;
    const team = def.teams.find((t) => t.id === card.team)!;
    return { ...s, task: card, goal: `${s.goal} Your role: ${role.name}, with ${team.name}. ${role.goal} ${team.goal}` };
  });
  // The rules are public: every seat reads them with the scene.
  const narrative = [...scenario.narrative, { text: `How ${def.title} is played: ${def.rules}`, visibleTo: 'all' as const }];
  return { scenario: { ...scenario, narrative, seats }, game: { def, deal } };
}

/** The record of a game that did not get to play (a failed start): roles as dealt, no winner. */
export function unplayedGame(game: WorldGame): GameRecord {
  return { game: game.def.id, roles: { ...game.deal.roles }, teams: teamsOf(game), rounds: 0, out: [], votes: [], inspections: [], winner: null, how: 'stopped' };
}

export function teamsOf(game: WorldGame): Record<string, string> {
  return Object.fromEntries(Object.entries(game.deal.roles).map(([seat, role]) => [seat, game.def.roles.find((r) => r.id === role)!.team]));
}
