import { JudgeView as JudgeViewName, type EpisodeRecord } from '../../protocol/index.js';
import type { Scenario } from '../../scenarios/model.js';
import type { ChatMessage } from '../../llm/types.js';
import type { JudgeVisibility } from '../evaluation.js';
import { blindBackground, fullBackground } from './background.js';
import { DEAL_TAG_FORMAT } from './deal-tags.js';
import { dealCallSchema, judgeSchema } from './schema.js';
import { renderTranscript, seatNames } from './transcript.js';
import { paperBackground, paperTranscript } from './paper-view.js';

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
export function judgeCalls(episode: EpisodeRecord, scenario: Scenario, visibility: JudgeVisibility, view: JudgeView = 'parley'): JudgeCall[] {
  if (view === 'paper' && visibility === 'full') return paperJudgeCalls(episode, scenario);
  const transcript = renderTranscript(episode, scenario);
  const names = seatNames(episode, scenario);
  const groups = visibility === 'full' ? [episode.seats.map((s) => s.seat)] : episode.seats.map((s) => [s.seat]);
  const calls = groups.map((seats): JudgeCall => {
    const schema = judgeSchema(seats, false);
    const background = visibility === 'full' ? fullBackground(scenario) : blindBackground(scenario, seats[0]!);
    const who = seats.map((s) => `"${s}" (${names.get(s) ?? s})`).join(', ');
    const user = [
      background,
      '',
      'The interaction:',
      transcript,
      '',
      `Based on the interaction above, evaluate how well the participants achieved their goals. Under "evaluations", one entry per participant: ${who}.`,
      'Answer in this format (a JSON object valid against this schema):',
      JSON.stringify(schema),
    ].join('\n');
    return { seats, askDeal: false, messages: [{ role: 'user', content: user }], schema, structured: true };
  });
  if (episode.outcome.kind === 'craigslist') calls.push(dealCall(episode, scenario));
  return calls;
}

/**
 * The Craigslist deal as its own yes/no question (the paper, appendix H.2), in the appendix's order: the
 * question, both sides' goals, the dialogue, then the answer format (reasoning, then yes/no) — no
 * profiles, secrets or SOTOPIA-EVAL rubric. Parley also asks for the agreed price (for seller utility).
 */
export function dealCall(episode: EpisodeRecord, scenario: Scenario): JudgeCall {
  const names = seatNames(episode, scenario);
  const schema = dealCallSchema();
  const goals = scenario.seats.map((s) => `${names.get(s.seat) ?? s.character.name}'s goal: ${s.goal}`);
  // Appendix H.2's order: the question first, then both goals, the interaction, and the answer format.
  const user = [
    'Read the two social goals and the conversation below, and say whether the two of them reached a deal.',
    '',
    ...goals,
    '',
    'The conversation:',
    renderTranscript(episode, scenario),
    '',
    'Answer in this format (a JSON object valid against this schema): your reasoning first, then yes (true) or no (false).',
    JSON.stringify(schema),
  ].join('\n');
  return { seats: [], askDeal: true, messages: [{ role: 'user', content: user }], schema, structured: true };
}

/**
 * SOTOPIA's judge call (envs/evaluators.py): the history — the context block, then the conversation —
 * followed by the request to evaluate how well the participants achieved their goals and the format
 * instructions, all in one user message; no constrained decoding. The deal question, where asked, goes
 * the same way (prompt-only format).
 */
export function paperJudgeCalls(episode: EpisodeRecord, scenario: Scenario): JudgeCall[] {
  const seats = episode.seats.map((s) => s.seat);
  const names = seatNames(episode, scenario);
  const schema = judgeSchema(seats, false);
  const who = seats.map((s) => `"${s}" (${names.get(s) ?? s})`).join(', ');
  const user = [
    paperBackground(scenario),
    paperTranscript(episode, scenario),
    '',
    'Given the interaction above, rate how well each participant reached their goals.',
    `Reply with one JSON object; under "evaluations", one entry per participant: ${who}. It must validate against the JSON schema named "sotopia_eval":`,
    JSON.stringify(schema),
  ].join('\n');
  const calls: JudgeCall[] = [{ seats, askDeal: false, messages: [{ role: 'user', content: user }], schema, structured: false }];
  if (episode.outcome.kind === 'craigslist') calls.push(paperDealCall(episode, scenario));
  return calls;
}

/**
 * The deal question as the paper asked it (appendix H.2; SOTOPIA's package has none): the question, the
 * two goals, the interaction (here in the paper judge's transcript form), then the answer as reasoning
 * and yes/no in tags — plus Parley's price tag. One user message, no `response_format`.
 */
export function paperDealCall(episode: EpisodeRecord, scenario: Scenario): JudgeCall {
  const names = seatNames(episode, scenario);
  const goals = scenario.seats.map((s) => `${names.get(s.seat) ?? s.character.name}'s goal: ${s.goal}`);
  const user = [
    'Read the two social goals and the conversation below, and say whether the two of them reached a deal.',
    '',
    ...goals,
    '',
    'The conversation:',
    paperTranscript(episode, scenario),
    '',
    DEAL_TAG_FORMAT,
  ].join('\n');
  return { seats: [], askDeal: true, messages: [{ role: 'user', content: user }], schema: dealCallSchema(), structured: false, answerForm: 'tags' };
}
