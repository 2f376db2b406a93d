import * as z from 'zod';
import { rangedScores, type SeatScores, type EvaluationError } from '../evaluation.js';
import { SOTOPIA_RUBRIC } from '../rubric/builtin.js';
import type { RubricDimension } from '../rubric/rubric.js';
import { JudgeErrorCode } from '../../protocol/index.js';
import { controlCharsEscaped } from '../../llm/lenient-json.js';

/** A judge reply, validated: every requested seat has each of its rubric's scores in range (and the deal when asked). */
export interface ParsedJudgement {
  seats: Record<string, SeatScores>;
  deal?: { deal: boolean; price: number | null; reasoning: string };
}

const Deal = z.object({
  reasoning: z.string(),
  deal_reached: z.boolean(),
  price: z.number().positive().nullable(),
});

/** Takes the JSON object out of a reply: the whole text, or the body of a ```json fence around it. */
function jsonText(content: string): string {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/i.exec(content);
  return fenced ? fenced[1]! : content;
}

/**
 * The reply as JSON: the whole text (or its fence), else what SOTOPIA's parser read — langchain's
 * PydanticOutputParser (0.0.311 at the paper's tag) took the greedy `\{.*\}` span, from the first `{` to
 * the last `}`, and read it with `json.loads(strict=False)` (raw line breaks inside strings allowed), so
 * such a judgement parsed there and needed no reformat request.
 */
function replyJson(content: string): unknown {
  try {
    return JSON.parse(jsonText(content));
  } catch (err) {
    const first = content.indexOf('{');
    const last = content.lastIndexOf('}');
    if (first < 0 || last <= first) throw err;
    return JSON.parse(controlCharsEscaped(content.slice(first, last + 1)));
  }
}

/**
 * Parses and range-checks a judge reply. Failures are values: `judge/bad_json` when the text is not a
 * JSON object, `judge/invalid_scores` when a seat, dimension or score is missing or out of range.
 */
export function parseJudgement(
  content: string,
  seats: readonly string[],
  askDeal: boolean,
  dimsOf: (seat: string) => readonly RubricDimension[] = () => SOTOPIA_RUBRIC.dimensions,
): { ok: true; value: ParsedJudgement } | { ok: false; error: Omit<EvaluationError, 'attempts'> } {
  let data: unknown;
  try {
    data = replyJson(content);
  } catch (err) {
    return { ok: false, error: { code: JudgeErrorCode.BadJson, message: `reply is not JSON: ${(err as Error).message}` } };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { ok: false, error: { code: JudgeErrorCode.BadJson, message: 'reply is not a JSON object' } };
  }
  const evaluations = (data as Record<string, unknown>)['evaluations'];
  if (seats.length && (typeof evaluations !== 'object' || evaluations === null)) {
    return { ok: false, error: { code: JudgeErrorCode.InvalidScores, message: 'missing "evaluations" object' } };
  }
  const out: Record<string, SeatScores> = {};
  for (const seat of seats) {
    const raw = (evaluations as Record<string, unknown>)[seat];
    if (raw === undefined) return { ok: false, error: { code: JudgeErrorCode.InvalidScores, message: `no evaluation for seat "${seat}"` } };
    const parsed = rangedScores(dimsOf(seat)).safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const where = issue.path.map(String).join('.');
      return { ok: false, error: { code: JudgeErrorCode.InvalidScores, message: `seat "${seat}": ${where ? `${where}: ` : ''}${issue.message}` } };
    }
    out[seat] = parsed.data;
  }
  const value: ParsedJudgement = { seats: out };
  if (askDeal) {
    const d = Deal.safeParse((data as Record<string, unknown>)['deal']);
    if (!d.success) return { ok: false, error: { code: JudgeErrorCode.InvalidScores, message: `deal: ${d.error.issues[0]!.path.join('.')} ${d.error.issues[0]!.message}` } };
    value.deal = { deal: d.data.deal_reached, price: d.data.deal_reached ? d.data.price : null, reasoning: d.data.reasoning };
  }
  return { ok: true, value };
}
