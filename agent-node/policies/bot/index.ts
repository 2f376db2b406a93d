import type { Policy } from '../../policy.js';
import { BotError, BotErrorCode, botPolicy, type BotOptions } from './bot-policy.js';
import { decideChatter, writeChatterScript } from './chatter/chatter.js';
import { decideFor } from './decide.js';
import { writeBotScript } from './script-writer.js';

/** The bot names `bot:<name>` accepts (`chatter` speaks every turn and never ends: for load tests). */
export const BOT_NAMES = ['mutual_friends', 'craigslist', 'open', 'script', 'chatter'] as const;
export type BotName = (typeof BOT_NAMES)[number];

/**
 * A deterministic built-in bot. `bot` (and `bot:script`, which also writes scripts) picks its strategy by the
 * scenario kind it is seated in; `bot:<kind>` plays only that kind and fails explicitly elsewhere.
 * Every bot can write a script, so any bot spec can be the script writer.
 */
export function createBotPolicy(spec: string, name?: BotName, options: BotOptions = {}): Policy {
  if (name === 'chatter') return botPolicy(spec, decideChatter, (request) => ({ ok: true, turns: writeChatterScript(request) }), options);
  const fixed = name && name !== 'script' ? name : null;
  return botPolicy(
    spec,
    (view, request) => {
      const kind = view.welcome.scenario.kind;
      if (fixed && fixed !== kind) throw new BotError(BotErrorCode.WrongKind, `${spec} plays ${fixed} scenarios, not ${kind}`);
      return decideFor(kind, view, request);
    },
    writeBotScript,
    options,
  );
}
