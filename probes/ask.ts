import { parsePolicySpec, type PolicyConfig } from '../protocol/index.js';
import { createProviderClient, parseSpec, splitParams, type ChatMessage, type ChatRequest, type LlmClient } from '../llm/index.js';
import { seatPromptMessages } from '../agent-node/policies/llm/seat-prompt.js';
import { loadTemplates, type Templates } from '../agent-node/policies/llm/templates.js';
import { botProbeAnswer } from '../agent-node/policies/bot/probe-answer.js';
import { probeMessage, type ProbeDefinition } from './definitions.js';
import type { ProbeTarget } from './plan.js';

/** The LLM policy's default sampling temperature (the paper's), applied when the seat's params set none. */
const SEAT_TEMPERATURE = 0.7;

export type Answer = { ok: true; answer: string } | { ok: false; message: string };

/** Who answers a probe: the seat's own policy, or the `--model` override. */
export interface Answerer {
  /** `provider:model` or the bot spec, for the probe file. */
  label: string;
  ask(target: ProbeTarget, probe: ProbeDefinition, signal?: AbortSignal): Promise<Answer>;
  /**
   * An LLM answerer's policy and the exact request `ask` would send for a target (for `--batch` and the
   * dry run's token count); absent for bots, which answer from their belief state.
   */
  llm?: { policy: PolicyConfig; request(target: ProbeTarget, probe: ProbeDefinition): ChatRequest };
}

/** Why a policy cannot answer a probe (a person, a replayed cassette), or null. */
export function unanswerable(policy: PolicyConfig): string | null {
  const parsed = parsePolicySpec(policy.spec);
  if (!parsed.ok) return parsed.message;
  if (parsed.spec.kind === 'human') return 'was played by a person, who cannot be asked again: give --model';
  if (parsed.spec.kind === 'replay') return 'was replayed from cassettes, which hold no answer to a probe: give --model';
  return null;
}

/** The messages an LLM seat gets for a probe: its exact prompt at that turn, then the probe, off the record. */
export function probeMessages(templates: Templates, target: ProbeTarget, probe: ProbeDefinition): ChatMessage[] {
  return [...seatPromptMessages(templates, target.view, target.request), { role: 'user', content: probeMessage(probe) }];
}

/**
 * An answerer for a policy. Bots answer from their belief state; LLM policies are sent the seat's prompt
 * plus the probe on one provider client with the seat's sampling (no cassette: the run's files stay as
 * they are). The prompt comes from the seat's own templates, as the live seat's did.
 */
export function answererFor(policy: PolicyConfig): Answerer {
  const parsed = parsePolicySpec(policy.spec);
  if (parsed.ok && parsed.spec.kind === 'bot') {
    return {
      label: policy.spec,
      ask: async (target, probe) => ({ ok: true, answer: botProbeAnswer(target.view, probe.botAsk) }),
    };
  }
  const { provider, model } = parseSpec(policy.spec);
  const sampling = { temperature: SEAT_TEMPERATURE, ...splitParams(provider, policy.params).sampling };
  let client: LlmClient | undefined;
  // The seat's prompt is rendered from the seat's own templates, whoever answers (`--model`).
  const templates = new Map<string, Templates>();
  const templatesOf = (dir: string | undefined) => {
    let t = templates.get(dir ?? '');
    if (!t) templates.set(dir ?? '', (t = loadTemplates(dir)));
    return t;
  };
  const request = (target: ProbeTarget, probe: ProbeDefinition): ChatRequest => ({ messages: probeMessages(templatesOf(target.policy.promptDir), target, probe), params: sampling });
  return {
    label: `${provider}:${model}`,
    llm: { policy, request },
    async ask(target, probe, signal) {
      try {
        client ??= createProviderClient(policy);
        const res = await client.chat(request(target, probe), signal);
        return { ok: true, answer: res.content };
      } catch (err) {
        return { ok: false, message: String((err as Error)?.message ?? err).slice(0, 500) };
      }
    },
  };
}
