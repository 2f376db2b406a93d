import type { EpisodeRecord } from '../../protocol/index.js';
import type { Scenario } from '../../scenarios/model.js';
import type { ChatMessage } from '../../llm/types.js';
import { fullBackground } from '../judge/background.js';
import { renderTranscript, seatNames } from '../judge/transcript.js';

/**
 * The attribution request of `eval --attribute` (issue 40), after sotopia-rl's direct attribution: the
 * model is given the conversation, one participant's goal and the goal score a judge gave it, and weighs
 * each of that participant's moves by how much it mattered to the outcome, on sotopia-rl's 0–3 scale
 * (0 no effect … 3 decisive). Parley's wording; sotopia-rl's facts: one request per participant, the whole
 * conversation, the goal, the score's outcome (achieved or not), what a move did rather than how well it was
 * worded, one weight per move of that participant only, JSON keyed by the move. Its `-1` for a redundant
 * move is left out: weights are normalised into shares of the score, and a negative weight has no share.
 */
export const ATTRIBUTION_PROMPT_VERSION = 'parley-attribution-1';

/** The highest weight a move can get. */
export const MAX_WEIGHT = 3;

/** The key a move is weighed under in the reply: its turn. */
export const moveKey = (turn: number) => `turn ${turn}`;

/** The seat's moves that can be weighed: every recorded action of its but `none` (saying nothing did nothing). */
export function weighableTurns(episode: EpisodeRecord, seat: string): number[] {
  return episode.turns.filter((t) => t.seat === seat && t.action && t.action.type !== 'none').map((t) => t.turn);
}

/** The reply's schema: under `weights`, one integer 0–3 per move, keyed `turn N`, every one required. */
export function attributionSchema(turns: readonly number[]): Record<string, unknown> {
  const weights = Object.fromEntries(turns.map((t) => [moveKey(t), { type: 'integer', minimum: 0, maximum: MAX_WEIGHT }]));
  return {
    type: 'object',
    properties: { weights: { type: 'object', properties: weights, required: turns.map(moveKey), additionalProperties: false } },
    required: ['weights'],
    additionalProperties: false,
  };
}

export const ATTRIBUTION_SCHEMA_NAME = 'parley_attribution';

/** The messages of one seat's attribution request. */
export function attributionMessages(episode: EpisodeRecord, scenario: Scenario, seat: string, score: { value: number; min: number; max: number }, turns: readonly number[]): ChatMessage[] {
  const name = seatNames(episode, scenario).get(seat) ?? seat;
  const goal = scenario.seats.find((s) => s.seat === seat)?.goal ?? '';
  const achieved = score.value >= (score.min + score.max) / 2;
  const user = [
    'The background of the conversation:',
    fullBackground(scenario),
    '',
    'The conversation:',
    renderTranscript(episode, scenario),
    '',
    `Participant weighed: ${name}.`,
    `${name}'s goal: ${goal}`,
    `A judge scored how far ${name} achieved this goal: ${score.value} on a scale from ${score.min} to ${score.max} (${achieved ? 'mostly achieved' : 'mostly not achieved'}).`,
    '',
    `Weigh each of ${name}'s moves by how much it brought about that outcome (${achieved ? 'the success' : 'the failure'}): 0 if it made no difference, 1 for a small effect, 2 for a clear one, ${MAX_WEIGHT} for a decisive one.`,
    "Weigh what a move did for the outcome, not how well it was put; the other side's replies show what it did. Weigh only " + `${name}'s moves, every one of them, the last one included.`,
    `Reply with one JSON object: under "weights", an integer from 0 to ${MAX_WEIGHT} for each of these ${turns.length} moves, keyed by its turn: ${turns.map((t) => JSON.stringify(moveKey(t))).join(', ')}.`,
  ].join('\n');
  return [{ role: 'user', content: user }];
}
