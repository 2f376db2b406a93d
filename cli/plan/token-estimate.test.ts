import { describe, expect, it } from 'vitest';
import { clScenario } from '../../evaluator/testing/fixtures.js';
import { GOAL_RUBRIC, SOTOPIA_RUBRIC } from '../../evaluator/rubric/builtin.js';
import { ESTIMATE, contextTokens, judgeTokens } from './token-estimate.js';

describe('judge token estimate', () => {
  const cl = clScenario();
  const transcript = 10 * ESTIMATE.tokensPerTurn;

  it('is the SOTOPIA-EVAL figure without a rubric or with the default one, deal question included', () => {
    const expected = {
      prompt: contextTokens(cl) + ESTIMATE.judgeRubric + transcript + contextTokens(cl) + ESTIMATE.dealPrompt + transcript,
      completion: ESTIMATE.judgeReply + ESTIMATE.dealReply,
    };
    expect(judgeTokens(cl, 10)).toEqual(expected);
    expect(judgeTokens(cl, 10, { isDefault: true, dimensions: SOTOPIA_RUBRIC.dimensions })).toEqual(expected);
  });

  it('scales with another rubric (one dimension: a seventh of the reply) and asks no deal question', () => {
    const t = judgeTokens(cl, 10, { isDefault: false, dimensions: GOAL_RUBRIC.dimensions });
    expect(t.completion).toBe(Math.round(ESTIMATE.judgeReply / 7));
    expect(t.prompt).toBeLessThan(contextTokens(cl) + ESTIMATE.judgeRubric + transcript);
  });
});
