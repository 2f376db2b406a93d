import { policyKind, type PolicyConfig } from '../../protocol/index.js';
import { definitionOf } from '../../simulation/index.js';
import type { RunConfig } from '../../orchestrator/run-config.js';
import { planEpisodes } from '../../orchestrator/run/plan.js';
import { resolveProtocol } from '../../orchestrator/run/protocol.js';
import { loadRunScenarios } from '../../orchestrator/run/scenario-source.js';
import { SOTOPIA_RUBRIC } from '../../evaluator/rubric/builtin.js';
import { planArm } from '../plan/dry-run.js';
import { usdOf } from '../plan/judge-estimate.js';
import { ESTIMATE, judgeTokens } from '../plan/token-estimate.js';
import type { JudgeTask } from './judge-arms.js';
import type { NaturalnessTask } from './naturalness.js';

/** A naturalness request: two dialogues at their turn cap and the question; the reply a choice with a short reason. */
const NATURALNESS_OVERHEAD_TOKENS = 300;
const NATURALNESS_REPLY_TOKENS = 80;

/*
 * `parley multiverse --dry-run` (issue 43): what the sweep would send, from the same scenario loading and
 * episode expansion as the runs, with `run --dry-run`'s token figures and `eval --dry-run`'s judge
 * figures, priced from the same table (llm/providers/<provider>.prices.json). Nothing is called.
 */

/** The sweep's totals: generation and judging apart, since a judge axis multiplies only the judging. */
export interface SweepPlan {
  episodes: number;
  generationCalls: number;
  judgeCalls: number;
  /** US$ priced; `unpriced`: the models the table has no price for. */
  usd: number;
  unpriced: Set<string>;
}

const isLlm = (p: PolicyConfig | undefined) => p !== undefined && policyKind(p.spec) === 'llm';

/** Plans every arm and every judge task: calls are first attempts, agents' episodes at their turn cap (an upper bound). */
export async function planSweep(arms: readonly { id: string; config: RunConfig }[], tasks: readonly JudgeTask[], batch: boolean, comparisons: readonly NaturalnessTask[] = []): Promise<SweepPlan> {
  const plan: SweepPlan = { episodes: 0, generationCalls: 0, judgeCalls: 0, usd: 0, unpriced: new Set() };
  const price = (spec: string, usd: number | null) => (usd === null ? plan.unpriced.add(spec) : (plan.usd += usd));
  for (const arm of arms) {
    const { config } = arm;
    const generation = await planArm(arm.id, config);
    plan.episodes += generation.episodes;
    for (const [spec, m] of Object.entries(generation.models)) price(spec, m.usd);
    const scenarios = await loadRunScenarios(config);
    const resolved = resolveProtocol(config, scenarios);
    const turnCap = definitionOf(resolved.name).engine.turnCap(config.maxTurns, resolved);
    const episodes = planEpisodes(scenarios, config);
    for (const e of episodes) {
      const seats = Object.values(e.policies ?? {});
      if (e.mode === 'script') plan.generationCalls += isLlm(config.scriptWriter) ? 1 : 0;
      else if (seats.length) plan.generationCalls += Math.ceil((turnCap * seats.filter(isLlm).length) / seats.length);
    }
    for (const task of tasks.filter((t) => t.armId === arm.id)) {
      const rubric = { isDefault: task.rubric === SOTOPIA_RUBRIC, dimensions: task.rubric.dimensions };
      const tokens = { prompt: 0, completion: 0 };
      for (const e of episodes) {
        const t = judgeTokens(e.scenario, config.maxTurns, rubric);
        tokens.prompt += t.prompt;
        tokens.completion += t.completion;
        plan.judgeCalls += e.scenario.kind === 'craigslist' && rubric.isDefault ? 2 : 1;
      }
      price(task.judge.spec, usdOf(task.judge.spec, tokens, batch));
    }
    // A comparison asks once per episode of side a (its pair), twice with both orders.
    for (const c of comparisons.filter((x) => x.armA === arm.id)) {
      const pairs = episodes.filter((e) => e.mode === c.modeA);
      const calls = pairs.length * ((c.orders ?? definitionOf(resolved.name).scoring.naturalnessOrders) === 'both' ? 2 : 1);
      plan.judgeCalls += calls;
      const prompt = calls * (2 * ESTIMATE.tokensPerTurn * turnCap + NATURALNESS_OVERHEAD_TOKENS);
      price(c.judge.spec, usdOf(c.judge.spec, { prompt, completion: calls * NATURALNESS_REPLY_TOKENS }, false));
    }
  }
  return plan;
}
