import { JudgeErrorCode, type EpisodeRecord } from '../../protocol/index.js';
import type { Scenario } from '../../scenarios/model.js';
import type { LlmClient } from '../../llm/types.js';
import type { EpisodeJudgement, EvaluationError, JudgedDeal, JudgeInfo, JudgeVisibility, SeatJudgement } from '../evaluation.js';
import { parseJudgement, type ParsedJudgement } from './parse.js';
import { DEAL_TAG_FORMAT, parseDealTags } from './deal-tags.js';
import { JUDGE_PROMPT_VERSION, judgeCalls, schemaName, type JudgeCall, type JudgeView } from './prompt.js';
import { SOTOPIA_RUBRIC } from '../rubric/builtin.js';
import { JUDGE_VIEW_FACTS } from '../../simulation/index.js';
import { rubricRef, type Rubric } from '../rubric/rubric.js';

/** SOTOPIA's judge runs at temperature 0; so does Parley's. */
export const JUDGE_TEMPERATURE = 0;
/** One try plus one retry. */
export const JUDGE_ATTEMPTS = 2;

export interface JudgeOptions {
  client: LlmClient;
  /** The policy spec the client was made from (`openai:gpt-4`), stored with the scores. */
  spec: string;
  visibility: JudgeVisibility;
  /** What the full judge is shown (default `parley`); recorded with the scores. */
  view?: JudgeView;
  /** What is scored (default SOTOPIA-EVAL); named and hashed in the record. */
  rubric?: Rubric;
  /**
   * Paper view: the model asked once to reformat an unparsable reply (SOTOPIA's `format_bad_output`,
   * gpt-3.5-turbo by default there); absent = the judge itself.
   */
  reformatClient?: LlmClient;
  /** `eval --param temperature=T`: the judge's sampling temperature (default JUDGE_TEMPERATURE, SOTOPIA's 0). */
  temperature?: number;
  signal?: AbortSignal;
  /** Clock for `evaluatedAt` (injected in tests). */
  now?: () => Date;
}

interface CallResult {
  result: { ok: true; value: ParsedJudgement } | { ok: false; error: EvaluationError };
  calls: number;
  prompt: number;
  completion: number;
  latencyMs: number;
  /** Calls answered below the configured structured-output rung (server rejected `response_format`). */
  fallbacks: number;
}

/**
 * SOTOPIA's one reformat request for a reply its parser could not read (generation_utils/generate.py):
 * the bad reply and the format instructions, asking for the same content in a parsable form. Own words.
 */
export function reformatMessages(bad: string, schema: Record<string, unknown>): JudgeCall['messages'] {
  const user = [
    'A JSON parser could not read the text below. Rewrite it so that it parses, without adding or removing any information.',
    `Text: ${bad}`,
    `Format instructions (JSON schema): ${JSON.stringify(schema)}`,
    'Reply with the rewritten text only.',
  ].join('\n');
  return [{ role: 'user', content: user }];
}

/** The same reformat request for the paper's deal answer, whose format is tags rather than JSON. */
export function reformatTagMessages(bad: string): JudgeCall['messages'] {
  const user = [
    'The text below does not follow the answer format. Rewrite it in that format, without adding or removing any information.',
    `Text: ${bad}`,
    DEAL_TAG_FORMAT,
    'Reply with the rewritten text only.',
  ].join('\n');
  return [{ role: 'user', content: user }];
}

/**
 * Runs one judge call; a provider error, bad JSON or an invalid score is retried once, then returned as an
 * error. Under the paper view (prompt-only format) an unreadable reply gets one reformat request instead of
 * a second judge call, as SOTOPIA's code did; if that fails too the call has no scores.
 */
async function runCall(call: JudgeCall, opts: JudgeOptions): Promise<CallResult> {
  const out: CallResult = { result: { ok: false, error: { code: JudgeErrorCode.ProviderError, message: 'not run', attempts: 0 } }, calls: 0, prompt: 0, completion: 0, latencyMs: 0, fallbacks: 0 };
  let reformat: string | null = null;
  for (let attempt = 1; attempt <= JUDGE_ATTEMPTS; attempt++) {
    out.calls++;
    let content: string;
    try {
      const client = reformat !== null ? (opts.reformatClient ?? opts.client) : opts.client;
      const messages = reformat !== null ? (call.answerForm === 'tags' ? reformatTagMessages(reformat) : reformatMessages(reformat, call.schema)) : call.messages;
      // The reformat request at its view's temperature (paper: SOTOPIA's 0.7), the judge's own otherwise.
      const temperature = (reformat !== null ? JUDGE_VIEW_FACTS[opts.view ?? 'parley'].reformatTemperature : null) ?? opts.temperature ?? JUDGE_TEMPERATURE;
      const res = await client.chat({ messages, ...(call.structured ? { json: { name: schemaName(opts.rubric ?? SOTOPIA_RUBRIC), schema: call.schema } } : {}), temperature }, opts.signal);
      out.prompt += res.usage.prompt;
      out.completion += res.usage.completion;
      out.latencyMs += res.latencyMs;
      if (res.structured?.fallback) out.fallbacks++;
      content = res.content;
    } catch (err) {
      if (opts.signal?.aborted) throw err;
      out.result = { ok: false, error: { code: JudgeErrorCode.ProviderError, message: (err as Error).message ?? String(err), attempts: attempt } };
      continue;
    }
    const parsed = call.answerForm === 'tags' ? parseDealTags(content) : parseJudgement(content, call.seats, call.askDeal, (seat) => call.dims[seat] ?? []);
    if (parsed.ok) {
      out.result = parsed;
      return out;
    }
    out.result = { ok: false, error: { ...parsed.error, attempts: attempt } };
    if (!call.structured) reformat = content;
  }
  return out;
}

/**
 * Judges one episode on the rubric's dimensions (SOTOPIA-EVAL's seven by default) for every seat it applies to. Never throws for judge
 * failures: a seat whose call failed twice gets `{ ok: false, error }`, never a score.
 */
export async function judgeEpisode(episode: EpisodeRecord, scenario: Scenario | undefined, opts: JudgeOptions): Promise<EpisodeJudgement> {
  const info: JudgeInfo = {
    spec: opts.spec,
    provider: opts.client.provider,
    model: opts.client.model,
    visibility: opts.visibility,
    temperature: opts.temperature ?? JUDGE_TEMPERATURE,
    promptVersion: JUDGE_PROMPT_VERSION,
    view: opts.view ?? 'parley',
    rubric: rubricRef(opts.rubric ?? SOTOPIA_RUBRIC),
  };
  const evaluatedAt = (opts.now ?? (() => new Date()))().toISOString();
  const seats: Record<string, SeatJudgement> = {};
  if (!scenario) {
    const error: EvaluationError = { code: JudgeErrorCode.MissingScenario, message: `scenario ${episode.scenarioId} is not in scenarios.jsonl`, attempts: 0 };
    for (const s of episode.seats) seats[s.seat] = { ok: false, error };
    return { judge: info, evaluatedAt, seats, calls: 0, usage: { prompt: 0, completion: 0 }, latencyMs: 0 };
  }
  const calls = judgeCalls(episode, scenario, opts.visibility, opts.view ?? 'parley', opts.rubric ?? SOTOPIA_RUBRIC);
  const results = await Promise.all(calls.map((c) => runCall(c, opts)));
  let deal: JudgedDeal | undefined;
  let n = 0;
  let prompt = 0;
  let completion = 0;
  let latencyMs = 0;
  let fallbacks = 0;
  calls.forEach((call, i) => {
    const r = results[i]!;
    n += r.calls;
    prompt += r.prompt;
    completion += r.completion;
    latencyMs += r.latencyMs;
    fallbacks += r.fallbacks;
    for (const seat of call.seats) seats[seat] = r.result.ok ? { ok: true, scores: r.result.value.seats[seat]! } : { ok: false, error: r.result.error };
    if (call.askDeal && (!deal || !deal.ok)) {
      deal = r.result.ok ? { ok: true, ...r.result.value.deal! } : { ok: false, error: r.result.error };
    }
  });
  const judgement: EpisodeJudgement = { judge: info, evaluatedAt, seats, calls: n, usage: { prompt, completion }, latencyMs };
  if (deal) judgement.deal = deal;
  if (fallbacks) judgement.formatFallbacks = fallbacks;
  return judgement;
}
