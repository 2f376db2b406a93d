import { BUILTIN_CHARACTERS } from '../characters.js';
import { Scenario, type Character } from '../model.js';
import { createRng, deriveSeed } from '../rng.js';

/** The subset that holds every built-in game; each game is also its own subset (`--subset werewolf`). */
export const GAMES_SUBSET = 'games';

/** The built-in games and the scene each is played in (rules and roles are the definitions': simulation/games/). */
const TABLES = [
  { game: 'werewolf', title: 'Werewolf', scene: 'Six neighbours gather in the village hall after a night of howling. Two of them are werewolves in disguise.' },
  { game: 'undercover', title: 'Undercover', scene: 'Six friends play a word game at a long table. Four of them share a secret word; two hold a different one.' },
] as const;

/**
 * The built-in hidden-role games (`--subset games`, or `werewolf` / `undercover`): six seats each, every
 * character known to the others by name. Seats carry no role here: the orchestrator deals the roles at the
 * start of each episode, seeded by its id (simulation/games/deal.ts), so each repeat deals anew.
 */
export function generateGameScenarios(seed: number, characters: readonly Character[] = BUILTIN_CHARACTERS): Scenario[] {
  return TABLES.map((t) => {
    const cast = createRng(deriveSeed(seed, `games/${t.game}`)).sample(characters, 6) as Character[];
    const id = `builtin-game-${t.game}`;
    return Scenario.parse({
      id,
      envId: id,
      pairId: id,
      codename: `game_${t.game}`,
      source: 'builtin',
      subsets: [GAMES_SUBSET, t.game],
      kind: 'game',
      narrative: [{ text: t.scene, visibleTo: 'all' }],
      relationship: { level: 1 },
      seats: cast.map((c, i) => ({
        seat: `agent${i + 1}`,
        character: c,
        goal: `You are ${c.name}, playing ${t.title}. Your role and what it asks of you are on your game card.`,
        hints: [],
        secret: c.secret,
        task: null,
        shares: [],
      })),
      truth: { kind: 'game', game: t.game },
    });
  });
}
