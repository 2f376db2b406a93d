import { JudgeErrorCode, type EpisodeRecord } from '../../protocol/index.js';
import type { Scenario } from '../../scenarios/model.js';
import type { LlmClient } from '../../llm/types.js';
import { lenientJson } from '../../llm/lenient-json.js';
import { judgeVariant, type EpisodeJudgement, type EvaluationError } from '../evaluation.js';
import type { Attribution, MoveShare, SeatAttribution } from '../../protocol/evaluation.js';
import { JUDGE_ATTEMPTS, JUDGE_TEMPERATURE } from '../judge/judge.js';
import { SOTOPIA_RUBRIC } from '../rubric/builtin.js';
import { ATTRIBUTION_PROMPT_VERSION, ATTRIBUTION_SCHEMA_NAME, attributionMessages, attributionSchema, MAX_WEIGHT, moveKey, weighableTurns } from './prompt.js';

/** The dimension whose score is split. */
export const ATTRIBUTED_DIMENSION = 'goal';

export interface AttributeOptions {
  client: LlmClient;
  /** The spec the client was made from, recorded with the split. */
  spec: string;
  signal?: AbortSignal;
  now?: () => Date;
}

type Cost = { calls: number; prompt: number; completion: number; latencyMs: number };

const failure = (code: EvaluationError['code'], message: string, attempts = 0): SeatAttribution => ({ ok: false, error: { code, message, attempts } });

/** The weights of a reply, each move's integer 0–3 under `weights`, exactly the moves asked; or why not. */
export function readWeights(content: string, turns: readonly number[]): { ok: true; weights: number[] } | { ok: false; code: EvaluationError['code']; message: string } {
  const parsed = lenientJson(content);
  const weights = parsed.ok ? (parsed.value as { weights?: unknown } | null)?.weights : undefined;
  if (typeof weights !== 'object' || weights === null || Array.isArray(weights)) return { ok: false, code: JudgeErrorCode.AttributionBadJson, message: 'the reply is not a JSON object with "weights"' };
  const asked = new Set(turns.map(moveKey));
  const extra = Object.keys(weights).filter((k) => !asked.has(k));
  if (extra.length) return { ok: false, code: JudgeErrorCode.AttributionInvalid, message: `weighed moves that are not the seat's: ${extra.slice(0, 5).join(', ')}` };
  const out: number[] = [];
  for (const t of turns) {
    const w = (weights as Record<string, unknown>)[moveKey(t)];
    if (typeof w !== 'number' || !Number.isInteger(w) || w < 0 || w > MAX_WEIGHT) return { ok: false, code: JudgeErrorCode.AttributionInvalid, message: `${moveKey(t)}: expected an integer from 0 to ${MAX_WEIGHT}, got ${JSON.stringify(w) ?? 'nothing'}` };
    out.push(w);
  }
  return { ok: true, weights: out };
}

/**
 * The shares of `score` by weight (weight / sum × score), so they sum to the score; all zero weights split a
 * score of 0 into zeros and any other score not at all (a coded error: Parley does not guess a split).
 */
export function sharesOf(turns: readonly number[], weights: readonly number[], score: number): SeatAttribution {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum === 0 && score !== 0) return failure(JudgeErrorCode.AttributionZeroWeights, `every move weighed 0, so no split sums to the score ${score}`);
  const shares: MoveShare[] = turns.map((turn, i) => ({ turn, weight: weights[i]!, share: sum === 0 ? 0 : (weights[i]! / sum) * score }));
  return { ok: true, score, shares };
}

/** One seat's attribution: the request, one retry on a failed or unusable reply, then the split or its error. */
async function attributeSeat(episode: EpisodeRecord, scenario: Scenario, seat: string, score: { value: number; min: number; max: number }, opts: AttributeOptions, cost: Cost): Promise<SeatAttribution> {
  const turns = weighableTurns(episode, seat);
  if (!turns.length) return failure(JudgeErrorCode.AttributionNoMoves, `seat ${seat} made no move`);
  const messages = attributionMessages(episode, scenario, seat, score, turns);
  let last: SeatAttribution = failure(JudgeErrorCode.ProviderError, 'not run');
  for (let attempt = 1; attempt <= JUDGE_ATTEMPTS; attempt++) {
    cost.calls++;
    let content: string;
    try {
      const res = await opts.client.chat({ messages, json: { name: ATTRIBUTION_SCHEMA_NAME, schema: attributionSchema(turns) }, temperature: JUDGE_TEMPERATURE }, opts.signal);
      cost.prompt += res.usage.prompt;
      cost.completion += res.usage.completion;
      cost.latencyMs += res.latencyMs;
      content = res.content;
    } catch (err) {
      if (opts.signal?.aborted) throw err;
      last = failure(JudgeErrorCode.ProviderError, (err as Error).message ?? String(err), attempt);
      continue;
    }
    const read = readWeights(content, turns);
    if (!read.ok) {
      last = failure(read.code, read.message, attempt);
      continue;
    }
    const split = sharesOf(turns, read.weights, score.value);
    if (split.ok) return split;
    last = { ...split, error: { ...split.error, attempts: attempt } };
  }
  return last;
}

/**
 * Splits every seat's goal score of `judgement` (the episode's main judgement) over the seat's moves. A seat
 * without a goal score, without moves, or whose attribution failed twice gets a coded error, never a split.
 */
export async function attributeEpisode(episode: EpisodeRecord, scenario: Scenario | undefined, judgement: EpisodeJudgement, opts: AttributeOptions): Promise<Attribution> {
  const cost: Cost = { calls: 0, prompt: 0, completion: 0, latencyMs: 0 };
  const range = (judgement.judge.rubric ?? SOTOPIA_RUBRIC).dimensions.find((d) => d.name === ATTRIBUTED_DIMENSION);
  const seats: Record<string, SeatAttribution> = {};
  for (const [seat, j] of Object.entries(judgement.seats)) {
    const value = j.ok ? j.scores[ATTRIBUTED_DIMENSION]?.score : undefined;
    if (!scenario) seats[seat] = failure(JudgeErrorCode.MissingScenario, `scenario ${episode.scenarioId} is not in scenarios.jsonl`);
    else if (value === undefined || !range) seats[seat] = failure(JudgeErrorCode.AttributionNoScore, j.ok ? `the judgement has no ${ATTRIBUTED_DIMENSION} score` : `the seat's judgement failed (${j.error.code})`);
    else seats[seat] = await attributeSeat(episode, scenario, seat, { value, min: range.min, max: range.max }, opts, cost);
  }
  return {
    spec: opts.spec,
    promptVersion: ATTRIBUTION_PROMPT_VERSION,
    dimension: ATTRIBUTED_DIMENSION,
    of: judgeVariant(judgement.judge),
    attributedAt: (opts.now ?? (() => new Date()))().toISOString(),
    seats,
    calls: cost.calls,
    usage: { prompt: cost.prompt, completion: cost.completion },
    latencyMs: cost.latencyMs,
  };
}
