import type { ScriptRequest } from '../../../protocol/index.js';
import { BotErrorCode, type ScriptDraft } from './bot-policy.js';
import { writeGameScript } from './game/script.js';
import { writeCraigslistScript } from './craigslist/script.js';
import { writeMutualFriendsScript } from './mutual-friends/script.js';
import { writeOpenScript } from './open/script.js';
import { decideFor } from './decide.js';
import { writeByPlaying } from './group-script.js';
import { taskOver } from './spoken-moves.js';

/** The script-writer bot: the whole dialogue from every side's background, by scenario kind. */
export function writeBotScript(request: ScriptRequest): ScriptDraft {
  const { background, limits } = request;
  switch (background.scenario.kind) {
    case 'mutual_friends':
      return { ok: true, turns: writeMutualFriendsScript(background, limits.maxTurns) };
    case 'craigslist':
      return { ok: true, turns: writeCraigslistScript(background, limits.maxTurns) };
    case 'game': {
      // The writer holds every card (the whole state) and writes a whole game by its rules (game/script.ts).
      const turns = writeGameScript(background, limits.maxTurns, request.episodeId);
      return turns ? { ok: true, turns } : { ok: false, error: { code: BotErrorCode.NoTask, message: 'the cards name no game this writer knows' } };
    }
    case 'open':
      return { ok: true, turns: writeOpenScript(background, limits.maxTurns) };
    case 'auction':
    case 'split': {
      // Each voice played by its agents-mode bot (group-script.ts); stops where a live episode would.
      const { kind, seats } = background.scenario;
      return { ok: true, turns: writeByPlaying(background, limits.maxTurns, (view, req) => decideFor(kind, view, req), (turns) => taskOver(kind, seats, turns)) };
    }
  }
}
