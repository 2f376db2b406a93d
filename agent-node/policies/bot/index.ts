import type { Policy } from '../../policy.js';
import { BotError, BotErrorCode, botPolicy } from './bot-policy.js';
import { decideFor } from './decide.js';
import { writeBotScript } from './script-writer.js';

/** The bot names `bot:<name>` accepts. */
export const BOT_NAMES = ['mutual_friends', 'craigslist', 'open', 'script'] as const;
export type BotName = (typeof BOT_NAMES)[number];

/**
 * A deterministic built-in bot. `bot` (and `bot:script`, which also writes scripts) picks its strategy by the
 * scenario kind it is seated in; `bot:<kind>` plays only that kind and fails explicitly elsewhere.
 * Every bot can write a script, so any bot spec can be the script writer.
 */
export function createBotPolicy(spec: string, name?: BotName): Policy {
  const fixed = name && name !== 'script' ? name : null;
  return botPolicy(
    spec,
    (view, request) => {
      const kind = view.welcome.scenario.kind;
      if (fixed && fixed !== kind) throw new BotError(BotErrorCode.WrongKind, `${spec} plays ${fixed} scenarios, not ${kind}`);
      return decideFor(kind, view, request);
    },
    writeBotScript,
  );
}
