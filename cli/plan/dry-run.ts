import { estimateCost } from '../../llm/cost.js';
import { mindreadKey, modelRefOf, type JudgeView, type Mode, type PolicyConfig } from '../../protocol/index.js';
import { defaultJudgeView, definitionOf, settingWords } from '../../simulation/index.js';
import type { RunConfig } from '../../orchestrator/run-config.js';
import { planEpisodes } from '../../orchestrator/run/plan.js';
import { resolveProtocol } from '../../orchestrator/run/protocol.js';
import { reformatTarget } from '../../agent-node/policies/llm/reformat-client.js';
import { loadRunScenarios } from '../../orchestrator/run/scenario-source.js';
import { episodeTokens, judgeTokens, type TokenEstimate } from './token-estimate.js';
import { SOTOPIA_RUBRIC } from '../../evaluator/rubric/builtin.js';
import { loadRubric } from '../../evaluator/rubric/load-rubric.js';

/** One arm's plan: episodes per mode and estimated tokens and cost per model. */
export interface ArmPlan {
  name: string;
  out: string;
  protocol: string | undefined;
  /** Who plays each seat, defaults marked (seat-line.ts). */
  seats?: string;
  /** Generators that receive the judge-only text (e.g. the MutualFriends answer): `leakJudgeOnly`. */
  judgeOnlyTo: string[];
  /** What becomes of a reply still unreadable after its one reformat request (`--on-unparsable`). */
  onUnparsable: 'none' | 'fail';
  /** What becomes of a seat's LLM call that fails after its retries (`--on-provider-error`). */
  onProviderError: 'none' | 'fail';
  /** Under a protocol that sets agents' temperature (paper): which reading (`--agent-temperature`), when agents play. */
  agentTemperature?: string;
  /** `--mindread` map in canonical form, when mindreading is partial (absent: everyone reads everyone). */
  mindread?: string;
  /** LLM generator spec → where its reformat request goes. */
  reformat: Record<string, string>;
  /** The judge named with the run (if any) and the view `parley eval` will give it by default (`judgeView`). */
  judge: { spec: string; view: JudgeView; recorded: boolean } | null;
  scenarios: number;
  byMode: Partial<Record<Mode, number>>;
  episodes: number;
  /** `provider:model` → estimated tokens and US$ (null: no price in the table). */
  models: Record<string, TokenEstimate & { usd: number | null; role: string[] }>;
}

const LLM = /^(openai|mistral):/;

function add(models: ArmPlan['models'], policy: PolicyConfig | undefined, role: string, t: TokenEstimate) {
  if (!policy || !LLM.test(policy.spec)) return;
  const m = (models[policy.spec] ??= { prompt: 0, completion: 0, usd: 0, role: [] });
  m.prompt += t.prompt;
  m.completion += t.completion;
  if (!m.role.includes(role)) m.role.push(role);
}

/**
 * The plan of one arm without calling anything: the same scenario loading and episode expansion as a
 * real run (so the counts are the run's), plus a token and cost estimate from the price table.
 */
export async function planArm(name: string, config: RunConfig, protocol?: string): Promise<ArmPlan> {
  const scenarios = await loadRunScenarios(config);
  const plans = planEpisodes(scenarios, config);
  const resolved = resolveProtocol(config, scenarios);
  const agentsPlay = config.modes.some((m) => m !== 'script');
  const generators = [...(config.modes.some((m) => m !== 'script') ? config.agents : []), ...(config.modes.includes('script') ? [config.scriptWriter] : [])];
  const reformat: Record<string, string> = {};
  for (const g of generators.filter((p) => LLM.test(p.spec))) {
    const target = reformatTarget(g, definitionOf(resolved.name).seat.reformat);
    reformat[g.spec] = target === null ? 'the same model, the conversation continued' : target === 'own' ? 'the same model, in a fresh request' : target.spec;
  }
  const plan: ArmPlan = {
    name,
    out: config.out,
    protocol,
    judgeOnlyTo: [...(config.leakJudgeOnly ?? [])],
    onUnparsable: resolved.onUnparsable,
    onProviderError: resolved.onProviderError,
    ...(agentsPlay && definitionOf(resolved.name).agentTemperature(resolved) !== undefined ? { agentTemperature: resolved.agentTemperature } : {}),
    ...(resolved.mindread ? { mindread: mindreadKey(resolved.mindread) } : {}),
    reformat,
    judge: config.judge ? { spec: config.judge.spec, view: config.judgeView ?? defaultJudgeView(resolved.name), recorded: config.judgeView !== undefined } : null,
    scenarios: scenarios.length,
    byMode: {},
    episodes: plans.length,
    models: {},
  };
  // The rubric `parley eval` will score (checked by `parley run` before this plan is made).
  const loaded = config.rubric ? loadRubric(config.rubric) : null;
  const rubric = loaded?.ok ? { isDefault: loaded.rubric === SOTOPIA_RUBRIC, dimensions: loaded.rubric.dimensions } : undefined;
  for (const p of plans) {
    plan.byMode[p.mode] = (plan.byMode[p.mode] ?? 0) + 1;
    const t = episodeTokens(p.scenario, p.mode, config.maxTurns);
    if (p.mode === 'script') add(plan.models, config.scriptWriter, 'script writer', t);
    else {
      // Each live seat makes about half of the episode's calls.
      const seats = Object.values(p.policies ?? {});
      for (const policy of seats) add(plan.models, policy, 'agent', { prompt: t.prompt / seats.length, completion: t.completion / seats.length });
    }
    add(plan.models, config.judge, 'judge', judgeTokens(p.scenario, config.maxTurns, rubric));
  }
  for (const [spec, m] of Object.entries(plan.models)) {
    m.prompt = Math.round(m.prompt);
    m.completion = Math.round(m.completion);
    const ref = modelRefOf(spec);
    m.usd = ref ? estimateCost(ref.provider, ref.model, { prompt: m.prompt, completion: m.completion, cached: 0 }) : null;
  }
  return plan;
}

const fmt = (n: number) => n.toLocaleString('en-US');
const usd = (n: number | null) => (n === null ? 'no price' : `$${n.toFixed(2)}`);

/** The printed plan: one block per arm, then the totals. */
export function planLines(arms: ArmPlan[]): string[] {
  const lines: string[] = [];
  let total = 0;
  let cost = 0;
  const unpriced = new Set<string>();
  for (const a of arms) {
    total += a.episodes;
    const modes = Object.entries(a.byMode).map(([m, n]) => `${m} ${fmt(n)}`).join(', ');
    lines.push(`arm ${a.name} → ${a.out}${a.protocol ? ` (protocol ${a.protocol})` : ''}: ${fmt(a.episodes)} episodes over ${fmt(a.scenarios)} scenario instances (${modes})`);
    if (a.seats) lines.push(`  ${a.seats}`);
    const to = a.judgeOnlyTo.map((t) => (t === 'script' ? 'the script writer' : 'the mindreaders'));
    lines.push(
      to.length
        ? `  judge-only text (the MutualFriends answer, naming the common friend) goes to ${to.join(' and ')}, as SOTOPIA's code did (leakJudgeOnly)`
        : '  judge-only text (the MutualFriends answer) goes to no generator: only the judge sees it',
    );
    if (a.mindread) lines.push(`  mindreaders mode reads only along --mindread: ${a.mindread}`);
    const fixes = Object.entries(a.reformat).map(([spec, to]) => `${spec} → ${to}`).join('; ');
    lines.push(
      `  an unreadable reply gets one reformat request${fixes ? ` (${fixes})` : ''}; ` +
        settingWords('onUnparsable', a.onUnparsable),
    );
    lines.push(`  ${settingWords('onProviderError', a.onProviderError)}`);
    if (a.agentTemperature) lines.push(`  ${settingWords('agentTemperature', a.agentTemperature)}; the script writer at 0.7`);
    if (a.judge) {
      const view = settingWords('judgeView', a.judge.view);
      lines.push(`  judge ${a.judge.spec} (parley eval): ${view}, ${a.judge.recorded ? 'as judgeView sets it' : "the protocol's default (judgeView)"}`);
    }
    for (const [spec, m] of Object.entries(a.models)) {
      lines.push(`  ${spec} [${m.role.join(', ')}]: ~${fmt(m.prompt)} prompt + ~${fmt(m.completion)} completion tokens, ${usd(m.usd)}`);
      if (m.usd === null) unpriced.add(spec);
      else cost += m.usd;
    }
  }
  lines.push(`total: ${fmt(total)} planned episodes in ${arms.length} arm(s); estimated cost ${usd(cost)}${unpriced.size ? ` plus unpriced ${[...unpriced].join(', ')}` : ''}`);
  lines.push('(estimate: every episode at its turn limit, ~4 characters per token, prices from llm/providers/<provider>.prices.json or $PARLEY_PRICES; dry run: nothing was called)');
  return lines;
}
