import { JudgeView as JudgeViewName, type EpisodeRecord } from '../../protocol/index.js';
import { scenarioAsPlayed } from '../games/as-played.js';
import { JUDGE_VIEW_FACTS } from '../../simulation/index.js';
import type { Scenario } from '../../scenarios/model.js';
import type { ChatMessage } from '../../llm/types.js';
import type { JudgeVisibility } from '../evaluation.js';
import { blindBackground, fullBackground } from './background.js';
import { DEAL_TAG_FORMAT } from './deal-tags.js';
import { dealCallSchema, judgeSchema } from './schema.js';
import { renderTranscript, seatNames } from './transcript.js';
import { paperBackground, paperTranscript } from './paper-view.js';
import { BUILTIN_RUBRICS, SOTOPIA_RUBRIC } from '../rubric/builtin.js';
import { dimensionsFor, type Rubric, type RubricDimension } from '../rubric/rubric.js';

/**
 * What the full judge is shown. `paper`: exactly SOTOPIA's judge information (paper-view.ts), one user
 * message with the format instructions in it and no `response_format`. `parley`: Parley's richer view
 * (relationship, every profile field, task data, visibility notes) with structured output.
 */
export type JudgeView = JudgeViewName;
export const JUDGE_VIEWS: readonly JudgeView[] = JudgeViewName.options;

/** Bumped whenever the prompt or rubric wording changes; stored with every evaluation. */
export const JUDGE_PROMPT_VERSION = 'parley-judge-4';

/** One judge call: which seats it scores (none for the deal call), whether it is the deal question, its messages and schema. */
export interface JudgeCall {
  seats: string[];
  /** The rubric dimensions each scored seat is asked for (the parser range-checks against these). */
  dims: Record<string, readonly RubricDimension[]>;
  askDeal: boolean;
  messages: ChatMessage[];
  schema: Record<string, unknown>;
  /** false: the schema goes only into the prompt text, no `response_format` (the paper view). */
  structured: boolean;
  /** `tags`: the reply is read as the paper's deal answer in tags (deal-tags.ts), not as JSON. */
  answerForm?: 'json' | 'tags';
}

/**
 * The judge calls for an episode. Like SOTOPIA's evaluator, the full judge reads the context and the
 * interaction, is asked how well the participants achieved their goals, and answers in the format of
 * the schema whose field descriptions are SOTOPIA-EVAL's criteria; no further instruction is added.
 * The full judge scores every seat in one call; the blind judge makes one call per seat, each seeing
 * only the public transcript and that seat's goal. Craigslist episodes get a separate deal call.
 */
export function judgeCalls(episode: EpisodeRecord, table: Scenario, visibility: JudgeVisibility, view: JudgeView = 'parley', rubric: Rubric = SOTOPIA_RUBRIC): JudgeCall[] {
  // A game's roles were dealt at play: the judge sees every seat's card as played.
  const scenario = scenarioAsPlayed(table, episode);
  if (JUDGE_VIEW_FACTS[view].sotopia && visibility === 'full') return paperJudgeCalls(episode, scenario, rubric);
  const transcript = renderTranscript(episode, scenario);
  const names = seatNames(episode, scenario);
  const dims = rubricDims(episode, scenario, rubric);
  const scored = episode.seats.map((s) => s.seat).filter((s) => dims[s]!.length > 0);
  const groups = scored.length === 0 ? [] : visibility === 'full' ? [scored] : scored.map((s) => [s]);
  const calls = groups.map((seats): JudgeCall => {
    const schema = judgeSchema(seats, false, rubric, (s) => dims[s]!);
    const background = visibility === 'full' ? fullBackground(scenario) : blindBackground(scenario, seats[0]!);
    const who = seats.map((s) => `"${s}" (${names.get(s) ?? s})`).join(', ');
    const user = [
      background,
      '',
      'The interaction:',
      transcript,
      '',
      `${askLine(rubric, 'parley')} Under "evaluations", one entry per participant: ${who}.`,
      'Answer in this format (a JSON object valid against this schema):',
      JSON.stringify(schema),
    ].join('\n');
    return { seats, dims: pick(dims, seats), askDeal: false, messages: [{ role: 'user', content: user }], schema, structured: true };
  });
  // The deal question belongs to the default rubric (its answer feeds the Craigslist metrics), not to other rubrics.
  if (episode.outcome.kind === 'craigslist' && rubric === SOTOPIA_RUBRIC) calls.push(dealCall(episode, scenario));
  return calls;
}

/**
 * The Craigslist deal as its own yes/no question (the paper, appendix H.2), in the appendix's order: the
 * question, both sides' goals, the dialogue, then the answer format (reasoning, then yes/no) — no
 * profiles, secrets or SOTOPIA-EVAL rubric. Parley also asks for the agreed price (for seller utility).
 */
export function dealCall(episode: EpisodeRecord, scenario: Scenario): JudgeCall {
  const schema = dealCallSchema();
  const format = ['Answer in this format (a JSON object valid against this schema): your reasoning first, then yes (true) or no (false).', JSON.stringify(schema)];
  const user = dealQuestion(episode, scenario, renderTranscript(episode, scenario), format);
  return { seats: [], dims: {}, askDeal: true, messages: [{ role: 'user', content: user }], schema, structured: true };
}

/** The deal question's text in appendix H.2's order: the question, both goals, the conversation, the answer format. */
function dealQuestion(episode: EpisodeRecord, scenario: Scenario, transcript: string, format: readonly string[]): string {
  const names = seatNames(episode, scenario);
  const goals = scenario.seats.map((s) => `${names.get(s.seat) ?? s.character.name}'s goal: ${s.goal}`);
  return [
    'Read the two social goals and the conversation below, and say whether the two of them reached a deal.',
    '',
    ...goals,
    '',
    'The conversation:',
    transcript,
    '',
    ...format,
  ].join('\n');
}

/**
 * SOTOPIA's judge call (envs/evaluators.py): the history — the context block, then the conversation —
 * followed by the request to evaluate how well the participants achieved their goals and the format
 * instructions, all in one user message; no constrained decoding. The deal question, where asked, goes
 * the same way (prompt-only format).
 */
export function paperJudgeCalls(episode: EpisodeRecord, scenario: Scenario, rubric: Rubric = SOTOPIA_RUBRIC): JudgeCall[] {
  const dims = rubricDims(episode, scenario, rubric);
  const seats = episode.seats.map((s) => s.seat).filter((s) => dims[s]!.length > 0);
  const names = seatNames(episode, scenario);
  const schema = judgeSchema(seats, false, rubric, (s) => dims[s]!);
  const who = seats.map((s) => `"${s}" (${names.get(s) ?? s})`).join(', ');
  const user = [
    paperBackground(scenario),
    paperTranscript(episode, scenario),
    '',
    askLine(rubric, 'paper'),
    `Reply with one JSON object; under "evaluations", one entry per participant: ${who}. It must validate against the JSON schema named "${schemaName(rubric)}":`,
    JSON.stringify(schema),
  ].join('\n');
  const calls: JudgeCall[] = seats.length ? [{ seats, dims: pick(dims, seats), askDeal: false, messages: [{ role: 'user', content: user }], schema, structured: false }] : [];
  // The deal question belongs to the default rubric (its answer feeds the Craigslist metrics), not to other rubrics.
  if (episode.outcome.kind === 'craigslist' && rubric === SOTOPIA_RUBRIC) calls.push(paperDealCall(episode, scenario));
  return calls;
}

/**
 * The deal question as the paper asked it (appendix H.2; SOTOPIA's package has none): the question, the
 * two goals, the interaction (here in the paper judge's transcript form), then the answer as reasoning
 * and yes/no in tags — plus Parley's price tag. One user message, no `response_format`.
 */
export function paperDealCall(episode: EpisodeRecord, scenario: Scenario): JudgeCall {
  const user = dealQuestion(episode, scenario, paperTranscript(episode, scenario), [DEAL_TAG_FORMAT]);
  return { seats: [], askDeal: true, messages: [{ role: 'user', content: user }], dims: {}, schema: dealCallSchema(), structured: false, answerForm: 'tags' };
}

/** The schema name sent with the request (and named in the paper view's prompt): SOTOPIA's for its own rubrics. */
export function schemaName(rubric: Rubric): string {
  return BUILTIN_RUBRICS.get(rubric.name) === rubric ? 'sotopia_eval' : 'rubric_eval';
}

/**
 * The request line after the interaction. The built-in rubrics (SOTOPIA-EVAL and its goal-only variant)
 * keep SOTOPIA's question about goals; a rubric file's dimensions need not be about goals, so its judge
 * is asked to score the dimensions the schema describes.
 */
function askLine(rubric: Rubric, view: JudgeView): string {
  if (BUILTIN_RUBRICS.get(rubric.name) === rubric) {
    return JUDGE_VIEW_FACTS[view].sotopia ? 'Given the interaction above, rate how well each participant reached their goals.' : 'Based on the interaction above, evaluate how well the participants achieved their goals.';
  }
  return 'Based on the interaction above, score each participant on every dimension of the schema below, following the description given for that dimension.';
}

/** The dimensions each seat is scored on: its task role (Craigslist buyer/seller) or its seat id select them. */
export function rubricDims(episode: EpisodeRecord, scenario: Scenario | undefined, rubric: Rubric): Record<string, readonly RubricDimension[]> {
  const out: Record<string, readonly RubricDimension[]> = {};
  for (const s of episode.seats) {
    const task = scenario?.seats.find((x) => x.seat === s.seat)?.task;
    out[s.seat] = dimensionsFor(rubric, { seat: s.seat, role: task?.kind === 'craigslist' || task?.kind === 'auction' ? task.role : null });
  }
  return out;
}

function pick<T>(o: Record<string, T>, keys: readonly string[]): Record<string, T> {
  return Object.fromEntries(keys.map((k) => [k, o[k]!]));
}
