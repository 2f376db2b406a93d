import type { Mode } from '../../protocol/index.js';
import type { Scenario } from '../../scenarios/model.js';

/**
 * A rough, stated-up-front token estimate for planning a run before spending anything. It is an upper
 * bound on length (every episode is assumed to run to `maxTurns`) built from a few fixed figures:
 * ~4 characters per token, a fixed instruction overhead per prompt, and typical reply lengths. Actual
 * usage is in run.json after the run.
 */
export const ESTIMATE = {
  charsPerToken: 4,
  /** Instructions, format description and names around the scenario text in every prompt. */
  promptOverhead: 350,
  /** One move as it appears in the history (`Turn #n: Name said: "…"`) and as a reply. */
  tokensPerTurn: 45,
  /** A script writer's reply per turn of dialogue. */
  scriptTokensPerTurn: 45,
  /** SOTOPIA-EVAL's rubric for two seats, and its reply (seven dimensions × reasoning + score, per seat). */
  judgeRubric: 1500,
  judgeReply: 900,
  /** The separate Craigslist deal question and its reply. */
  dealPrompt: 200,
  dealReply: 80,
} as const;

export interface TokenEstimate {
  prompt: number;
  completion: number;
}

/** Tokens of the text a generator sees of the scenario: narrative, characters, goals (judge text aside). */
export function contextTokens(s: Scenario): number {
  const text = [
    ...s.narrative.map((n) => n.text),
    ...s.seats.flatMap((seat) => [seat.goal, JSON.stringify(seat.character)]),
    s.relationship.story ?? '',
  ].join('\n');
  return Math.ceil(text.length / ESTIMATE.charsPerToken);
}

/** Generator tokens of one episode (agents: one call per turn with the growing history; script: one call). */
export function episodeTokens(s: Scenario, mode: Mode, maxTurns: number): TokenEstimate {
  const context = contextTokens(s) + ESTIMATE.promptOverhead;
  if (mode === 'script') return { prompt: context, completion: maxTurns * ESTIMATE.scriptTokensPerTurn };
  const history = (ESTIMATE.tokensPerTurn * maxTurns * (maxTurns - 1)) / 2;
  return { prompt: Math.round(context * maxTurns + history), completion: maxTurns * ESTIMATE.tokensPerTurn };
}

/** A rubric as the estimate sees it: its dimensions' criteria (the default rubric when absent). */
export interface RubricSize {
  /** False for a rubric other than SOTOPIA-EVAL: no separate deal question is asked under it. */
  isDefault: boolean;
  dimensions: readonly { criteria: string }[];
}

/**
 * Judge tokens of one episode: the scoring call, plus the deal call for a Craigslist scenario under the
 * default rubric. The figures are SOTOPIA-EVAL's (seven dimensions, two seats); another rubric scales them
 * by its criteria text and its number of dimensions.
 */
export function judgeTokens(s: Scenario, maxTurns: number, rubric?: RubricSize): TokenEstimate {
  const transcript = maxTurns * ESTIMATE.tokensPerTurn;
  const seats = s.seats.length;
  const rubricTokens = rubric && !rubric.isDefault ? Math.ceil((seats * rubric.dimensions.reduce((a, d) => a + d.criteria.length + 120, 0)) / ESTIMATE.charsPerToken) : ESTIMATE.judgeRubric;
  const reply = rubric && !rubric.isDefault ? Math.round((ESTIMATE.judgeReply / 14) * seats * rubric.dimensions.length) : ESTIMATE.judgeReply;
  const base = contextTokens(s) + rubricTokens + transcript;
  const askDeal = s.kind === 'craigslist' && (!rubric || rubric.isDefault);
  const deal = askDeal ? { prompt: contextTokens(s) + ESTIMATE.dealPrompt + transcript, completion: ESTIMATE.dealReply } : { prompt: 0, completion: 0 };
  return { prompt: base + deal.prompt, completion: reply + deal.completion };
}
