import type { EpisodeRecord } from '../../protocol/index.js';
import { gameCard, gameDefinition } from '../../simulation/games/index.js';
import type { Scenario } from '../../scenarios/model.js';

/**
 * A game episode's scenario as it was played: scenarios.jsonl holds the table without roles (the
 * orchestrator deals them per episode), so the judge, who sees every seat, gets each seat's card back
 * from the record's deal (roles, and the words of a word game). Any other episode: the scenario as is.
 */
export function scenarioAsPlayed(scenario: Scenario, episode: EpisodeRecord): Scenario {
  const game = episode.game;
  const def = game ? gameDefinition(game.game) : undefined;
  if (!game || !def) return scenario;
  const pair = def.words?.findIndex(([a, b]) => Object.values(game.word ?? {}).every((w) => w === a.word || w === b.word));
  const deal = { roles: game.roles, ...(pair !== undefined && pair >= 0 ? { wordPair: pair } : {}) };
  return { ...scenario, seats: scenario.seats.map((s) => (game.roles[s.seat] ? { ...s, task: gameCard(def, deal, s.seat) } : s)) };
}
