import type { Answerer } from '../../probes/ask.js';
import type { ProbeDefinition } from '../../probes/definitions.js';
import { judgeMessage, type ProbeJudge } from '../../probes/judge.js';
import type { ProbeTarget } from '../../probes/plan.js';
import { terminalSafe } from '../../text/terminal.js';
import { usdOf } from './judge-estimate.js';
import { ESTIMATE, type TokenEstimate } from './token-estimate.js';

/** A probe's answer is a short sentence or a value; the judge replies with one number. */
const ANSWER_TOKENS = 60;
const JUDGE_REPLY_TOKENS = 3;

const k = (n: number) => (n >= 10_000 ? `${(n / 1000).toFixed(1)}k` : String(n));
const usd = (v: number | null) => (v === null ? 'cost unpriced (no price in the table)' : `~$${v.toFixed(4)}`);
const tokensOf = (chars: number) => Math.ceil(chars / ESTIMATE.charsPerToken);

export interface ProbeEstimateInput {
  probe: ProbeDefinition;
  targets: readonly ProbeTarget[];
  answererOf: (t: ProbeTarget) => Answerer;
  judge: ProbeJudge | null;
  batch: boolean;
}

/**
 * `probe --dry-run`'s lines: per answering model its questions, tokens (prompt measured from the real
 * requests, answers at a typical length) and cost; then the judge's, when answers are judged. Bots cost nothing.
 */
export function probePlanLines(o: ProbeEstimateInput): string[] {
  const byModel = new Map<string, { calls: number; t: TokenEstimate }>();
  let bots = 0;
  for (const target of o.targets) {
    const a = o.answererOf(target);
    if (!a.llm) {
      bots += 1;
      continue;
    }
    const chars = a.llm.request(target, o.probe).messages.reduce((n, m) => n + m.content.length, 0);
    const entry = byModel.get(a.label) ?? { calls: 0, t: { prompt: 0, completion: 0 } };
    entry.calls += 1;
    entry.t.prompt += tokensOf(chars);
    entry.t.completion += ANSWER_TOKENS;
    byModel.set(a.label, entry);
  }
  const lines: string[] = [];
  let total: number | null = 0;
  const add = (label: string, calls: number, t: TokenEstimate, what: string, batch: boolean) => {
    const cost = usdOf(label, t, batch);
    total = total === null || cost === null ? null : total + cost;
    lines.push(`${what} ${terminalSafe(label)}: ${calls} request(s), ~${k(t.prompt)} prompt + ~${k(t.completion)} completion tokens, ${usd(cost)}${batch && cost !== null ? ' at the batch price' : ''}`);
  };
  for (const [label, { calls, t }] of byModel) add(label, calls, t, 'answers from', o.batch);
  if (bots) lines.push(`answers from bots: ${bots} question(s), answered from their belief state at no cost`);
  const judged = o.probe.scorer === 'judge' && o.judge ? o.targets.length : 0;
  if (judged && o.judge) {
    const chars = o.targets.reduce((n, t) => n + judgeMessage(o.probe.question, String(t.truth), '').length + ANSWER_TOKENS * ESTIMATE.charsPerToken, 0);
    add(o.judge.label, judged, { prompt: tokensOf(chars), completion: judged * JUDGE_REPLY_TOKENS }, 'scores from judge', false);
  }
  lines.push(`total: ${usd(total)}; prompt tokens measured from the requests at ~${ESTIMATE.charsPerToken} characters per token, answers ~${ANSWER_TOKENS} tokens each${o.batch ? '; judge scores are sent live under --batch' : ''}`);
  return lines;
}
