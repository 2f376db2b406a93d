/**
 * The fake fine-tuning endpoint's check of an uploaded training file, written from OpenAI's published
 * format rules (not from Parley's writers, so a test that passes here says the file is OpenAI's shape):
 * - `supervised`: each line `{"messages": [...]}` with at least one assistant message;
 * - `dpo` (preference fine-tuning): each line `{"input": {"messages": [...]}, "preferred_output": [...],
 *   "non_preferred_output": [...]}`, the input a non-empty list of system/developer/user/assistant messages
 *   with text content, each output exactly one assistant message with text content, and the two outputs
 *   different (a pair with nothing to prefer teaches nothing).
 * A training file needs at least 10 examples.
 */

export const OPENAI_MIN_TRAINING_EXAMPLES = 10;

const INPUT_ROLES = new Set(['system', 'developer', 'user', 'assistant']);

type Message = { role?: unknown; content?: unknown };

const textMessage = (m: unknown): m is Message & { content: string } =>
  typeof m === 'object' && m !== null && typeof (m as Message).content === 'string' && typeof (m as Message).role === 'string';

function outputProblem(name: string, v: unknown): string | null {
  if (!Array.isArray(v) || v.length !== 1) return `${name} must hold exactly one message`;
  const m = v[0] as Message;
  if (!textMessage(m) || m.role !== 'assistant') return `${name}[0] must be an assistant message with text content`;
  return null;
}

function dpoProblem(v: Record<string, unknown>): string | null {
  const input = v.input as { messages?: unknown } | undefined;
  if (typeof input !== 'object' || input === null || !Array.isArray(input.messages) || input.messages.length === 0) return 'input.messages must be a non-empty list';
  for (const [i, m] of input.messages.entries()) {
    if (!textMessage(m) || !INPUT_ROLES.has(m.role as string)) return `input.messages[${i}] must have a role (system, developer, user, assistant) and text content`;
  }
  const problem = outputProblem('preferred_output', v.preferred_output) ?? outputProblem('non_preferred_output', v.non_preferred_output);
  if (problem) return problem;
  const [a, b] = [(v.preferred_output as Message[])[0]!.content, (v.non_preferred_output as Message[])[0]!.content];
  return a === b ? 'preferred_output and non_preferred_output are the same' : null;
}

function supervisedProblem(v: Record<string, unknown>): string | null {
  const messages = v.messages;
  if (!Array.isArray(messages) || !messages.every(textMessage)) return 'messages must be a list of messages with a role and text content';
  return messages.some((m) => m.role === 'assistant') ? null : 'messages must hold an assistant message';
}

/** What is wrong with a training file for a method, naming the line; null when it is well formed. */
export function fileProblem(content: string, method: string, minExamples: number): string | null {
  const lines = content.split('\n');
  let examples = 0;
  for (const [i, line] of lines.entries()) {
    if (!line.trim()) continue;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      return `line ${i + 1}: not JSON`;
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return `line ${i + 1}: not a JSON object`;
    const problem = method === 'dpo' ? dpoProblem(v as Record<string, unknown>) : supervisedProblem(v as Record<string, unknown>);
    if (problem) return `line ${i + 1}: ${problem}`;
    examples++;
  }
  return examples < minExamples ? `${examples} examples; a training file needs at least ${minExamples}` : null;
}
