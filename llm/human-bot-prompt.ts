import type { ChatMessage } from './types.js';

/**
 * The raw completion prompt SOTOPIA sent Together for Mixtral and the Llama-2 chat models
 * (`generation_utils/llama2.py` at the paper's tag): a system message is folded into the first user
 * message with a newline; then one line per message, `<human>: ` for the user and `<bot>: ` for the
 * assistant, its content trimmed, each ended by a newline; the prompt ends with an open `<bot>: `.
 */
export function humanBotPrompt(messages: readonly ChatMessage[]): string {
  const dialog = [...messages];
  if (dialog[0]?.role === 'system') {
    const [system, next] = dialog;
    dialog.splice(0, 2, { role: next?.role ?? 'user', content: next ? `${system!.content}\n${next.content}` : system!.content });
  }
  let prompt = '';
  for (const m of dialog) prompt += `${m.role === 'assistant' ? '<bot>' : '<human>'}: ${m.content.trim()}\n`;
  return `${prompt}<bot>: `;
}
