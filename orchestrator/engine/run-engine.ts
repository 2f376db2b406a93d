import type { EngineContext, EngineResult } from './engine-types.js';
import { runScriptEpisode } from './script-episode.js';
import { runTurnLoop } from './turn-loop.js';

/** Runs one episode of the world's mode over connected seats. Transport-agnostic. */
export function runEngine(ctx: EngineContext): Promise<EngineResult> {
  // A script is written in one call: it has no turn at which another policy could take over.
  if (ctx.world.mode === 'script' && ctx.prefix) throw new Error('a script-mode episode cannot replay a prefix');
  return ctx.world.mode === 'script' ? runScriptEpisode(ctx) : runTurnLoop(ctx);
}
