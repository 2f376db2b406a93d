import type { GamePrivate } from '../../protocol/index.js';
import { fnv1a, rngFromState } from '../../random/seeded.js';
import type { GameDefinition } from './definition.js';

/** Roles as dealt for one episode: seat → role id, and the word pair drawn (word games). */
export interface Deal {
  roles: Record<string, string>;
  /** Index into the definition's `words` (absent: not a word game). */
  wordPair?: number;
}

/**
 * Deals the roles over the seats, seeded by the episode id, so a rerun deals the same and each repeat of a
 * game (its id differs by repeat) deals anew: a model seated at agent1 plays every role over a run.
 */
export function dealRoles(def: GameDefinition, seats: readonly string[], seed: string): Deal {
  const pool = def.roles.flatMap((r) => Array.from({ length: r.count }, () => r.id));
  if (pool.length !== seats.length) throw new Error(`game ${def.id} deals ${pool.length} roles, the scenario has ${seats.length} seats`);
  const rng = rngFromState(fnv1a(`deal\u241f${def.id}\u241f${seed}`));
  const shuffled = rng.shuffle(pool);
  const roles: Record<string, string> = Object.create(null) as Record<string, string>;
  seats.forEach((s, i) => (roles[s] = shuffled[i]!));
  return def.words?.length ? { roles, wordPair: rng.int(0, def.words.length - 1) } : { roles };
}

/** One seat's private card: only what its role may know (its teammates only on a team with a channel). */
export function gameCard(def: GameDefinition, deal: Deal, seat: string): GamePrivate {
  const role = def.roles.find((r) => r.id === deal.roles[seat])!;
  const team = def.teams.find((t) => t.id === role.team)!;
  const teammates = team.channel ? Object.keys(deal.roles).filter((s) => s !== seat && teamOf(def, deal, s) === team.id) : [];
  const card: GamePrivate = { kind: 'game', game: def.id, role: role.id, roleName: role.name, team: team.id, teamName: team.name, teammates };
  if (role.word !== undefined && deal.wordPair !== undefined) {
    const w = def.words![deal.wordPair]![role.word];
    card.word = w.word;
    card.clues = [...w.clues];
  }
  return card;
}

export function teamOf(def: GameDefinition, deal: Deal, seat: string): string {
  return def.roles.find((r) => r.id === deal.roles[seat])!.team;
}
