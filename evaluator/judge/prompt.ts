import type { EpisodeRecord } from '../../protocol/index.js';
import type { Scenario } from '../../scenarios/model.js';
import type { ChatMessage } from '../../llm/types.js';
import type { JudgeVisibility } from '../evaluation.js';
import { blindBackground, fullBackground } from './background.js';
import { judgeSchema } from './schema.js';
import { renderTranscript, seatNames } from './transcript.js';

/** Bumped whenever the prompt or rubric wording changes; stored with every evaluation. */
export const JUDGE_PROMPT_VERSION = 'parley-judge-1';

const SYSTEM =
  'You are an impartial evaluator of social interactions between role-played characters. ' +
  'You read the context and the interaction, then score each participant you are asked about on seven dimensions. ' +
  'For every dimension, reason first, then give an integer score inside the stated range. ' +
  'Judge only what happened in the interaction. Reply with a single JSON object that matches the schema, and nothing else.';

/** One judge call: which seats it scores, whether it asks about a deal, its messages and schema. */
export interface JudgeCall {
  seats: string[];
  askDeal: boolean;
  messages: ChatMessage[];
  schema: Record<string, unknown>;
}

/**
 * The judge calls for an episode. The full judge scores every seat in one call, like SOTOPIA's; the
 * blind judge makes one call per seat, each seeing only the public transcript and that seat's goal.
 * Craigslist episodes also ask whether a deal was reached.
 */
export function judgeCalls(episode: EpisodeRecord, scenario: Scenario, visibility: JudgeVisibility): JudgeCall[] {
  const transcript = renderTranscript(episode, scenario);
  const names = seatNames(episode, scenario);
  const askDeal = episode.outcome.kind === 'craigslist';
  const groups = visibility === 'full' ? [episode.seats.map((s) => s.seat)] : episode.seats.map((s) => [s.seat]);
  return groups.map((seats) => {
    const schema = judgeSchema(seats, askDeal);
    const background = visibility === 'full' ? fullBackground(scenario) : blindBackground(scenario, seats[0]!);
    const who = seats.map((s) => `${names.get(s) ?? s} (seat "${s}")`).join(' and ');
    const user = [
      'Here is the context of this interaction.',
      background,
      '',
      'The interaction:',
      transcript,
      '',
      `Evaluate ${who}. Under "evaluations", use exactly these keys: ${seats.map((s) => JSON.stringify(s)).join(', ')}.`,
      askDeal ? 'Also answer under "deal" whether the two sides agreed on a sale, and at what price.' : '',
      'Answer with JSON matching this schema (each field\'s description is its rubric):',
      JSON.stringify(schema),
    ]
      .filter((line, i, all) => line !== '' || all[i - 1] !== '')
      .join('\n');
    return { seats, askDeal, messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: user }], schema };
  });
}
