/** Hidden-role games (issue 39): the definition format, the built-in games, the deal and the rules. Pure. */
import { defineGame, type GameDefinition } from './definition.js';
import { UNDERCOVER_RULES } from './undercover.js';
import { WEREWOLF_RULES } from './werewolf.js';

export * from './definition.js';
export * from './deal.js';
export * from './state.js';
export * from './driver.js';
export * from './card.js';

let builtIn: ReadonlyMap<string, GameDefinition> | undefined;

/**
 * The built-in games by id: a scenario names one in its truth (`{ kind: 'game', game: 'werewolf' }`).
 * Checked by `defineGame` on first use, not at load: every agent process and command loads this module.
 */
export function builtInGames(): ReadonlyMap<string, GameDefinition> {
  return (builtIn ??= new Map([WEREWOLF_RULES, UNDERCOVER_RULES].map((rules) => defineGame(rules)).map((g) => [g.id, g])));
}

/** The definition a scenario names, or undefined when no built-in game has that id. */
export function gameDefinition(id: string): GameDefinition | undefined {
  return builtInGames().get(id);
}
