import type { TrainingExample } from './examples.js';
import { ESTIMATE, type TokenCounter } from './tokens.js';

/** The chat fine-tuning file formats `parley export` writes. */
export const CHAT_FORMATS = ['openai-chat', 'mistral-chat'] as const;
export type ChatFormat = (typeof CHAT_FORMATS)[number];

/** Each example's line, made once: `dedupe` compares lines and the file is written from them. */
const lines = new WeakMap<TrainingExample, string>();

/**
 * One line of the training file: both providers take `{"messages": [...]}` for chat fine-tuning. Made once
 * per example (a paper-size export is ~45 MB of prompts: serialised for `dedupe` and again for the file, it
 * was a sixth of the export's CPU samples).
 */
export function exampleLine(ex: TrainingExample): string {
  let line = lines.get(ex);
  if (line === undefined) lines.set(ex, (line = JSON.stringify({ messages: ex.messages.map((m) => ({ role: m.role, content: m.content })) })));
  return line;
}

/** A format rule an example or file breaks, naming it. */
export interface FormatIssue {
  /** 1-based line in the written file (0: the file as a whole). */
  line: number;
  example: string;
  message: string;
  /** `error`: the provider would refuse or cut the example; `warning`: a whole-file rule (e.g. too few examples yet). */
  severity: 'error' | 'warning';
}

const ROLES: Record<ChatFormat, readonly string[]> = {
  'openai-chat': ['system', 'user', 'assistant'],
  'mistral-chat': ['system', 'user', 'assistant'],
};

/** Each provider's published limits that a file of chat examples must keep. */
export const FORMAT_RULES: Record<ChatFormat, { minExamples: number; maxTokensPerExample: number; lastMustBeAssistant: boolean; userBeforeAssistant: boolean }> = {
  // OpenAI: at least 10 examples; an example longer than the model's training context (16,385 tokens for
  // gpt-3.5-turbo-0125) is truncated, so it is refused here; training happens on assistant messages.
  'openai-chat': { minExamples: 10, maxTokensPerExample: 16_385, lastMustBeAssistant: false, userBeforeAssistant: false },
  // Mistral: a conversation ends with the assistant's message and has a user message before it; the
  // smallest supported fine-tuning context is 32k tokens.
  'mistral-chat': { minExamples: 1, maxTokensPerExample: 32_768, lastMustBeAssistant: true, userBeforeAssistant: true },
};

/** Names an example for messages: where it came from. */
export function exampleRef(ex: TrainingExample): string {
  return `episode ${ex.episodeId} seat ${ex.seat} turn ${ex.turn}`;
}

/**
 * Checks examples against the provider's chat fine-tuning format before anything is uploaded. Every
 * issue names the file line and the example (episode, seat, turn).
 */
export function validateExamples(format: ChatFormat, examples: readonly TrainingExample[], opts: { maxTokens?: number; minExamples?: number; tokens?: TokenCounter } = {}): FormatIssue[] {
  const rules = FORMAT_RULES[format];
  const maxTokens = opts.maxTokens ?? rules.maxTokensPerExample;
  const issues: FormatIssue[] = [];
  examples.forEach((ex, i) => {
    const at = (message: string) => issues.push({ line: i + 1, example: exampleRef(ex), message, severity: 'error' });
    const msgs = ex.messages;
    if (msgs.length === 0) return at('no messages');
    msgs.forEach((m, k) => {
      if (!ROLES[format].includes(m.role)) at(`message ${k}: role '${m.role}' is not one of ${ROLES[format].join(', ')}`);
      if (typeof m.content !== 'string' || m.content.trim() === '') at(`message ${k} (${m.role}): empty content`);
    });
    const firstAssistant = msgs.findIndex((m) => m.role === 'assistant');
    if (firstAssistant < 0) at('no assistant message to learn from');
    if (rules.lastMustBeAssistant && msgs.at(-1)!.role !== 'assistant') at(`the last message is '${msgs.at(-1)!.role}', not 'assistant'`);
    if (rules.userBeforeAssistant && firstAssistant >= 0 && !msgs.slice(0, firstAssistant).some((m) => m.role === 'user')) at('no user message before the first assistant message');
    const tokens = (opts.tokens ?? ESTIMATE).count(msgs);
    if (tokens > maxTokens) at(`about ${tokens} tokens, over the ${maxTokens}-token limit per example`);
  });
  const minExamples = opts.minExamples ?? rules.minExamples;
  if (examples.length > 0 && examples.length < minExamples) {
    issues.push({ line: 0, example: '(file)', message: `${examples.length} examples; ${format} fine-tuning needs at least ${minExamples} in a training file`, severity: 'warning' });
  }
  return issues;
}
