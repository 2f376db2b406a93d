import type { GamePrivate } from '../../protocol/index.js';

/**
 * A seat's game card in words: its role, side, known teammates and word. The one wording shared by the
 * LLM prompt, the terminal client, the seat page and the judge's background, so they agree.
 */
export function gameCardLines(card: GamePrivate): string[] {
  const lines = [`Your role (secret): ${card.roleName}, on the side of ${card.teamName}.`];
  if (card.teammates.length) lines.push(`Your teammates (they know you too): ${card.teammates.join(', ')}.`);
  if (card.word !== undefined) lines.push(`Your secret word: ${card.word}.`);
  return lines;
}
