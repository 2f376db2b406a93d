import type { EngineContext, EngineResult } from './engine-types.js';
import { runScriptEpisode } from './script-episode.js';
import { runTurnLoop } from './turn-loop.js';
import { runGameLoop } from '../game/game-loop.js';

/** Runs one episode of the world's mode over connected seats. Transport-agnostic. */
export function runEngine(ctx: EngineContext): Promise<EngineResult> {
  // A script is written in one call: it has no turn at which another policy could take over.
  if (ctx.world.mode === 'script' && ctx.prefix) throw new Error('a script-mode episode cannot replay a prefix');
  if (ctx.world.mode === 'script') return runScriptEpisode(ctx);
  // A hidden-role game plays by its definition's phases, not round robin (game-loop.ts).
  return ctx.world.game ? runGameLoop(ctx, ctx.world.game) : runTurnLoop(ctx);
}
