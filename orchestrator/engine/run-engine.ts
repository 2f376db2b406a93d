import type { EngineContext, EngineResult } from './engine-types.js';
import { runScriptEpisode } from './script-episode.js';
import { runTurnLoop } from './turn-loop.js';

/** Runs one episode of the world's mode over connected seats. Transport-agnostic. */
export function runEngine(ctx: EngineContext): Promise<EngineResult> {
  return ctx.world.mode === 'script' ? runScriptEpisode(ctx) : runTurnLoop(ctx);
}
