import type { PreferencePair } from './pairs.js';

/**
 * The preference-pair file formats `parley pairs` writes:
 * - `openai-dpo`: OpenAI's preference fine-tuning lines (`method: dpo`): `input.messages` is the prompt,
 *   `preferred_output` and `non_preferred_output` each hold one assistant message.
 * - `trl`: TRL's conversational preference lines (`DPOTrainer`, reward trainers): `prompt` is the message
 *   list, `chosen` and `rejected` each one assistant message, so TRL applies the chat template itself.
 */
export const PAIR_FORMATS = ['openai-dpo', 'trl'] as const;
export type PairFormat = (typeof PAIR_FORMATS)[number];

const assistant = (content: string) => [{ role: 'assistant', content }];
const prompt = (p: PreferencePair) => p.prompt.map((m) => ({ role: m.role, content: m.content }));

/** One line of the pairs file. */
export function pairLine(format: PairFormat, p: PreferencePair): string {
  if (format === 'openai-dpo') return JSON.stringify({ input: { messages: prompt(p) }, preferred_output: assistant(p.chosen.reply), non_preferred_output: assistant(p.rejected.reply) });
  return JSON.stringify({ prompt: prompt(p), chosen: assistant(p.chosen.reply), rejected: assistant(p.rejected.reply) });
}

/** One line of `FILE.index.jsonl`: where each pair came from and the scores that ranked it. */
export function pairIndexLine(p: PreferencePair, line: number, by: string): string {
  return JSON.stringify({
    line,
    parentRun: p.parentRun,
    parentEpisode: p.parentEpisode,
    turn: p.turn,
    scenarioId: p.scenarioId,
    seat: p.seat,
    by,
    margin: p.margin,
    chosen: { run: p.chosen.runDir, episodeId: p.chosen.episodeId, score: p.chosen.score },
    rejected: { run: p.rejected.runDir, episodeId: p.rejected.episodeId, score: p.rejected.score },
  });
}

/** OpenAI's published minimum for a fine-tuning file (preference files included). */
export const OPENAI_MIN_EXAMPLES = 10;
