import type { Action, GamePrivate, ScriptBackground, ScriptTurn } from '../../../../protocol/index.js';
import { GameDriver, gameDefinition, GameState } from '../../../../simulation/games/index.js';
import { botRng, seedOf, type BotRng } from '../seed.js';

/**
 * The script-writer bot for a game: it holds every seat's card (the whole state, as script mode gives
 * it) and writes a whole game by playing it through the game's own rules (simulation/games/driver.ts):
 * the hiding side conspires on its channel and votes for outsiders, everyone else votes on a hunch.
 * Deterministic per episode. Null when the cards name no game this writer knows.
 */
export function writeGameScript(background: ScriptBackground, maxRounds: number, episodeId = ''): ScriptTurn[] | null {
  const cards = new Map(background.seats.flatMap((s) => (s.task?.kind === 'game' ? [[s.seat, s.task] as const] : [])));
  const first = [...cards.values()][0];
  const def = first ? gameDefinition(first.game) : undefined;
  if (!def || cards.size !== background.seats.length) return null;
  const roles = Object.fromEntries([...cards].map(([seat, c]) => [seat, c.role]));
  const state = new GameState(def, { roles }, background.seats.map((s) => s.seat));
  const driver = new GameDriver(state, Math.min(def.maxRounds, maxRounds));
  const rng = botRng(seedOf(episodeId, 'game-script'));
  const turns: ScriptTurn[] = [];
  let proposal: string | null = null;
  for (;;) {
    const next = driver.advance([]);
    if (next.kind === 'end') return turns;
    const card = cards.get(next.actor)!;
    const outsiders = state.alive.filter((s) => state.team(s) !== card.team);
    let action: Action;
    if (next.phase.act === 'speak') {
      if (next.phase.channel === 'team') proposal = rng.pick(outsiders.length ? outsiders : state.alive);
      action = { type: 'speak', argument: line(next.phase.channel, next.round, card, proposal, state.alive, next.actor, rng) };
    } else {
      const targets = state.targets(next.phase, next.actor);
      const effect = next.phase.move!.effect;
      const hiding = def.win.some((w) => w.when === 'eliminated' && w.team === card.team);
      const wanted = effect === 'attack' ? proposal : effect === 'vote' && hiding ? rng.pick(outsiders) : null;
      action = { type: 'action', argument: `${next.phase.move!.verb} ${wanted && targets.includes(wanted) ? wanted : rng.pick(targets)}` };
    }
    turns.push({ seat: next.actor, action });
    driver.play(action);
  }
}

function line(channel: string, round: number, card: GamePrivate, proposal: string | null, alive: readonly string[], self: string, rng: BotRng): string {
  if (channel === 'team') return `Round ${round}, between us: let's take ${proposal} tonight.`;
  if (card.clues?.length) return rng.pick(card.clues);
  return `I suspect ${rng.pick(alive.filter((s) => s !== self))}.`;
}
