/**
 * Settings a seat that is not an LLM can take: a bot's think time (`delayMs`, agent-node's bot policy) and
 * its one private move (`whisperTo`, `whisperAt`, `whisperText`: agent-node/policies/bot/whisper.ts),
 * nothing else. A sampling parameter given to such a seat (`--param agent2.temperature=0.2` on a bot)
 * would be carried and ignored: it is refused instead, naming the seat's policy.
 */
export const BOT_SETTING_KEYS: readonly string[] = ['delayMs', 'whisperTo', 'whisperAt', 'whisperText'];

/** Why `key` cannot go to a non-LLM seat playing `spec`, or null when it can (a bot's own setting). */
export function nonLlmParamProblem(spec: string, key: string): string | null {
  const isBot = spec === 'bot' || spec.startsWith('bot:');
  if (isBot && BOT_SETTING_KEYS.includes(key)) return null;
  return `'${key}' has no effect on a ${spec} seat (not an LLM${isBot ? `; a bot takes only ${BOT_SETTING_KEYS.join(', ')}` : ''})`;
}
