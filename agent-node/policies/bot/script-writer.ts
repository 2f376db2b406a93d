import type { ScriptRequest } from '../../../protocol/index.js';
import type { ScriptDraft } from './bot-policy.js';
import { writeCraigslistScript } from './craigslist/script.js';
import { writeMutualFriendsScript } from './mutual-friends/script.js';
import { writeOpenScript } from './open/script.js';

/** The script-writer bot: the whole dialogue from both sides' backgrounds, by scenario kind. */
export function writeBotScript(request: ScriptRequest): ScriptDraft {
  const { background, limits } = request;
  switch (background.scenario.kind) {
    case 'mutual_friends':
      return { ok: true, turns: writeMutualFriendsScript(background, limits.maxTurns) };
    case 'craigslist':
      return { ok: true, turns: writeCraigslistScript(background, limits.maxTurns) };
    case 'open':
      return { ok: true, turns: writeOpenScript(background, limits.maxTurns) };
  }
}
