import * as z from 'zod';
import { ErrorCode } from '../../protocol/index.js';
import type { EvaluationError } from '../evaluation.js';
import type { ParsedJudgement } from './parse.js';

/**
 * The paper's deal question (appendix H.2) asks for the reasoning and then a yes/no answer, each in its own
 * tag, not for JSON. Parley also asks for the agreed price in a third tag (for seller utility; the paper
 * does not). Reading is tolerant, because the answer is what matters: tag names in any case, a missing
 * closing tag, `Answer: yes` without tags, a JSON deal object (as Parley's own view asks for); a reply
 * with no yes/no anywhere in those forms is an error, never a guess.
 */

/** The answer format, in Parley's words, as the last lines of the deal question. */
export const DEAL_TAG_FORMAT = [
  'Answer in this format:',
  '<reasoning>your reasoning</reasoning>',
  '<answer>yes or no</answer>',
  'and, when the answer is yes, the agreed price in dollars: <price>the price</price>',
].join('\n');

/** The text after `<name>` up to `</name>`, the next tag or the end; null when the tag is absent. */
function tagText(content: string, name: string): string | null {
  const m = new RegExp(`<\\s*${name}\\s*>([\\s\\S]*?)(?:<\\s*/\\s*${name}\\s*>|(?=<\\s*[a-z/])|$)`, 'i').exec(content);
  return m ? m[1]!.trim() : null;
}

/** yes/no at the start of an answer text ("Yes.", "no, they walked away"). */
function yesNo(text: string | null): boolean | null {
  const m = text === null ? null : /^\W*(yes|no)\b/i.exec(text);
  return m ? m[1]!.toLowerCase() === 'yes' : null;
}

/** A positive dollar amount in a price text ("$1,200", "70.50 dollars"); null for none. */
function priceOf(text: string | null): number | null {
  const m = text === null ? null : /\d[\d,]*(?:\.\d+)?/.exec(text);
  const value = m ? Number(m[0].replace(/,/g, '')) : NaN;
  return Number.isFinite(value) && value > 0 ? value : null;
}

const JsonDeal = z.object({ reasoning: z.string().default(''), deal_reached: z.boolean(), price: z.number().positive().nullable().default(null) });

/** A deal object in JSON (`{"deal": {…}}` or the object itself), the fallback form. */
function jsonDeal(content: string): z.infer<typeof JsonDeal> | null {
  const body = /\{[\s\S]*\}/.exec(content)?.[0];
  if (!body) return null;
  try {
    const data = JSON.parse(body) as Record<string, unknown>;
    const parsed = JsonDeal.safeParse(data['deal'] ?? data);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Reads the deal answer of a paper-view deal reply. */
export function parseDealTags(content: string): { ok: true; value: ParsedJudgement } | { ok: false; error: Omit<EvaluationError, 'attempts'> } {
  const tagged = yesNo(tagText(content, 'answer'));
  const bare = tagged ?? yesNo(/(?:^|\n)\W*answer\W*:\s*(.*)/i.exec(content)?.[1] ?? null);
  if (bare !== null) {
    const reasoning = tagText(content, 'reasoning') ?? '';
    return { ok: true, value: { seats: {}, deal: { deal: bare, price: bare ? priceOf(tagText(content, 'price')) : null, reasoning } } };
  }
  const json = jsonDeal(content);
  if (json) return { ok: true, value: { seats: {}, deal: { deal: json.deal_reached, price: json.deal_reached ? json.price : null, reasoning: json.reasoning } } };
  return { ok: false, error: { code: ErrorCode.JudgeNoAnswer, message: 'the deal reply has no yes/no answer (expected <answer>yes</answer> or <answer>no</answer>)' } };
}
