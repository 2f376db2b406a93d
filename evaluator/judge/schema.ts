import { SOTOPIA_RUBRIC } from '../rubric/builtin.js';
import type { Rubric, RubricDimension } from '../rubric/rubric.js';

/**
 * The JSON schema the judge answers with, generated from the rubric. Each dimension's criteria text is
 * the description of its field and its range is the field's minimum/maximum, so a provider with
 * structured output receives the criteria with the schema, and a provider with plain JSON mode reads the
 * same schema in the prompt. Criteria from a rubric file travel only as JSON string values (data).
 * Strict-mode compatible: every property required, no additional properties.
 */

type JsonSchema = Record<string, unknown>;

function dimensionSchema(rubric: Rubric, dims: readonly RubricDimension[]): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const d of dims) {
    properties[d.name] = {
      type: 'object',
      description: d.criteria,
      properties: {
        reasoning: { type: 'string', description: `Your analysis for ${d.name}.` },
        score: { type: 'integer', minimum: d.min, maximum: d.max, description: `Integer in [${d.min}, ${d.max}].` },
      },
      required: ['reasoning', 'score'],
      additionalProperties: false,
    };
  }
  const description =
    rubric === SOTOPIA_RUBRIC ? 'Scores of one participant on the seven SOTOPIA-EVAL dimensions.' : `Scores of one participant on the dimensions of the rubric ${JSON.stringify(rubric.name)}.`;
  return { type: 'object', description, properties, required: dims.map((d) => d.name), additionalProperties: false };
}

/**
 * The deal question of Craigslist episodes, asked in its own call (the paper, appendix H.2): a yes/no
 * answer from both goals and the dialogue. The price is asked alongside for the normalised-price metric.
 */
export const DEAL_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'Did the two sides reach a deal? Answer yes (true) or no (false); give the agreed price in dollars, or null when there was no deal.',
  properties: {
    reasoning: { type: 'string' },
    deal_reached: { type: 'boolean' },
    price: { type: ['number', 'null'] },
  },
  required: ['reasoning', 'deal_reached', 'price'],
  additionalProperties: false,
};

/** Schema of the separate deal call: only the deal answer. */
export function dealCallSchema(): JsonSchema {
  return { type: 'object', properties: { deal: DEAL_SCHEMA }, required: ['deal'], additionalProperties: false };
}

/**
 * Schema for one judge call scoring `seats` (seat ids), with the deal question when `askDeal`. `dimsOf`
 * gives the rubric dimensions that apply to a seat (all of them by default).
 */
export function judgeSchema(
  seats: readonly string[],
  askDeal: boolean,
  rubric: Rubric = SOTOPIA_RUBRIC,
  dimsOf: (seat: string) => readonly RubricDimension[] = () => rubric.dimensions,
): JsonSchema {
  const evaluations: JsonSchema = {
    type: 'object',
    description: 'One entry per evaluated participant, keyed by seat id.',
    properties: Object.fromEntries(seats.map((s) => [s, dimensionSchema(rubric, dimsOf(s))])),
    required: [...seats],
    additionalProperties: false,
  };
  const properties: Record<string, JsonSchema> = { evaluations };
  if (askDeal) properties['deal'] = DEAL_SCHEMA;
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}
