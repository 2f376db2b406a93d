import { estimateCost } from '../../llm/cost.js';
import type { JudgePlan } from '../../evaluator/plan-judging.js';
import type { Rubric } from '../../evaluator/rubric/rubric.js';
import { terminalSafe } from '../../text/terminal.js';
import { modelRefOf } from '../../protocol/index.js';
import { ESTIMATE, type TokenEstimate } from './token-estimate.js';

/** Reply tokens per (seat, dimension) answer: `run --dry-run`'s judge reply figure is for seven dimensions × two seats. */
const REPLY_TOKENS_PER_SCORE = ESTIMATE.judgeReply / 14;

/** Tokens of a judge plan: prompt from the real request text at the estimate's characters per token, reply from its figures. */
export function judgePlanTokens(p: JudgePlan): TokenEstimate {
  return {
    prompt: Math.ceil(p.promptChars / ESTIMATE.charsPerToken),
    completion: Math.round(p.seatDimensions * REPLY_TOKENS_PER_SCORE + p.dealCalls * ESTIMATE.dealReply),
  };
}

/** Batch APIs (OpenAI's Batch API, Mistral's batch jobs) bill batched requests at half the live price. */
export const BATCH_PRICE_FACTOR = 0.5;

/** US$ from the price table (at the batch price when `batch`), or null when the model has no price there. */
export function usdOf(spec: string, t: TokenEstimate, batch = false): number | null {
  const ref = modelRefOf(spec);
  if (!ref) return null;
  try {
    const usd = estimateCost(ref.provider, ref.model, { prompt: t.prompt, completion: t.completion, cached: 0 });
    return usd === null ? null : usd * (batch ? BATCH_PRICE_FACTOR : 1);
  } catch {
    return null;
  }
}

const k = (n: number) => (n >= 10_000 ? `${(n / 1000).toFixed(1)}k` : String(n));
const usd = (v: number | null) => (v === null ? 'cost unpriced (no price in the table)' : `~$${v.toFixed(4)}`);

/** `eval --dry-run`'s lines: per judge its calls, tokens and cost, then the panel's total. */
export function judgePlanLines(plans: readonly JudgePlan[], ctx: { dir: string; rubric: Rubric; visibility: string; view: string; batch?: boolean }): string[] {
  const batch = ctx.batch === true;
  const price = (spec: string, t: TokenEstimate) => usdOf(spec, t, batch);
  const priced = (v: number | null, live: number | null) => (batch && v !== null ? `${usd(v)} at the batch price (half of ${usd(live)} live)` : usd(v));
  const first = plans[0];
  const lines = [
    `dry run: no request sent. Rubric ${terminalSafe(ctx.rubric.name)} (${ctx.rubric.dimensions.length} dimensions, ${ctx.rubric.hash.slice(0, 12)}), ${ctx.visibility} judge, ${ctx.view} view, run ${terminalSafe(ctx.dir)}` +
      (first ? `: ${first.episodes} episodes to judge${first.skippedFailed ? `, ${first.skippedFailed} failed not judged` : ''}` : ''),
  ];
  let calls = 0;
  let total: number | null = 0;
  const sum: TokenEstimate = { prompt: 0, completion: 0 };
  for (const p of plans) {
    const t = judgePlanTokens(p);
    const cost = price(p.spec, t);
    calls += p.calls;
    sum.prompt += t.prompt;
    sum.completion += t.completion;
    total = total === null || cost === null ? null : total + cost;
    lines.push(
      `judge ${terminalSafe(p.spec)}: ${p.calls} judge calls (${p.episodes} episodes${p.skippedDone ? `, ${p.skippedDone} already scored` : ''}), ` +
        `~${k(t.prompt)} prompt + ~${k(t.completion)} completion tokens, ${priced(cost, usdOf(p.spec, t))}`,
    );
  }
  if (plans.length > 1) lines.push(`panel: ${calls} judge calls, ~${k(sum.prompt)} prompt + ~${k(sum.completion)} completion tokens, ${usd(total)}${batch ? ' at the batch price' : ''}`);
  if (batch) lines.push('--batch: one batch per judge; retries and reformat requests, and requests a batch fails (with --batch-retry live), are sent live at the full price.');
  lines.push('Calls are first attempts (a retry or reformat request adds one); prompt tokens are measured from the requests at ~4 characters per token, reply tokens are a typical length per score.');
  return lines;
}
