import type { EngineContext, EngineResult } from './engine-types.js';
import { runScriptEpisode } from './script-episode.js';
import { runTurnLoop } from './turn-loop.js';
import { runGameLoop } from '../game/game-loop.js';
import { scoreScriptedGame } from '../game/score-script.js';

/** Runs one episode of the world's mode over connected seats. Transport-agnostic. */
export function runEngine(ctx: EngineContext): Promise<EngineResult> {
  // A script is written in one call: it has no turn at which another policy could take over.
  if (ctx.world.mode === 'script' && ctx.prefix) throw new Error('a script-mode episode cannot replay a prefix');
  // A game's script is played through the game's rules afterwards, for its winner (game/score-script.ts).
  const game = ctx.world.game;
  if (ctx.world.mode === 'script') return game ? runScriptEpisode(ctx).then((r) => scoreScriptedGame(ctx.world, game, r)) : runScriptEpisode(ctx);
  // A hidden-role game plays by its definition's phases, not round robin (game-loop.ts).
  return game ? runGameLoop(ctx, game) : runTurnLoop(ctx);
}
