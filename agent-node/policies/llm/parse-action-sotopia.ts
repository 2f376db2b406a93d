import { ACTION_TYPES, type Action, type ActionType } from '../../../protocol/index.js';
import { controlCharsEscaped } from '../../../llm/lenient-json.js';
import { MAX_ARGUMENT, type Parsed } from './parse-action.js';

/**
 * An agent's reply read as SOTOPIA's code read it (`--reply-reading code`, the default under `paper`):
 * langchain 0.0.311's `PydanticOutputParser` over the `AgentAction` model (pydantic 1.10). The greedy span
 * from the first `{` to the last `}` is read by `json.loads(strict=False)` (raw control characters inside
 * strings allowed); it must be an object holding both `action_type`, exactly one of the five types, and
 * `argument`, a string (a number is written as text, as pydantic 1 coerced it); other keys are ignored.
 * Anything else is unreadable and goes to the one reformat request, as SOTOPIA sent it. A type the seat is
 * not offered now is unreadable too (SOTOPIA offered every type to the agent on turn). Never lenient.
 */
export function sotopiaAction(content: string, allowed: readonly ActionType[]): Parsed<Action> {
  const text = content.trim();
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end < start) return { ok: false, reason: 'the reply holds no JSON object' };
  let value: unknown;
  try {
    value = JSON.parse(controlCharsEscaped(text.slice(start, end + 1)));
  } catch {
    return { ok: false, reason: 'the span from the first { to the last } is not valid JSON' };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { ok: false, reason: 'the JSON is not an object' };
  const { action_type: type, argument } = value as Record<string, unknown>;
  if (typeof type !== 'string' || !(ACTION_TYPES as readonly string[]).includes(type)) return { ok: false, reason: `"action_type" is not one of ${ACTION_TYPES.join(', ')}` };
  if (!allowed.includes(type as ActionType)) return { ok: false, reason: `action type "${type}" is not allowed now (allowed: ${allowed.join(', ')})` };
  // pydantic 1's str field: a string, or a number (a bool is one in Python) written as text; anything else fails.
  const said = typeof argument === 'string' ? argument : typeof argument === 'number' ? String(argument) : typeof argument === 'boolean' ? (argument ? 'True' : 'False') : null;
  if (said === null) return { ok: false, reason: '"argument" is missing or not a string' };
  const kept = type === 'none' || type === 'leave' ? '' : said.slice(0, MAX_ARGUMENT);
  return { ok: true, value: { type: type as ActionType, argument: kept }, lenient: false };
}
