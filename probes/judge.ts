import { createProviderClient, parseSpec, type LlmClient } from '../llm/index.js';
import type { Scored } from './score.js';

/** Scores free-text answers against the truth, 0–10, with a judge model (`--judge`). */
export interface ProbeJudge {
  label: string;
  score(question: string, truth: string, answer: string, signal?: AbortSignal): Promise<Scored>;
}

/** The judge's instruction, in Parley's own words. */
export function judgeMessage(question: string, truth: string, answer: string): string {
  return [
    'You grade how well an answer matches the truth.',
    `Question: ${question}`,
    `The truth: ${truth}`,
    `The answer: ${answer}`,
    'Give a score from 0 (wrong or no idea) to 10 (the same as the truth in substance). Reply with the number only.',
  ].join('\n');
}

/** `params`: client settings (`rpm`, endpoint keys…) for the judge's client. */
export function probeJudge(spec: string, params: Record<string, unknown> = {}): ProbeJudge {
  const { provider, model } = parseSpec(spec);
  let client: LlmClient | undefined;
  return {
    label: `${provider}:${model}`,
    async score(question, truth, answer, signal) {
      client ??= createProviderClient({ spec, params });
      const res = await client.chat({ messages: [{ role: 'user', content: judgeMessage(question, truth, answer) }], params: { temperature: 0 } }, signal);
      const m = /\b(10|[0-9])(?:\.\d+)?\b/.exec(res.content);
      return m ? { score: Number(m[0]) } : { score: null, why: `the judge gave no score from 0 to 10 (${JSON.stringify(res.content.slice(0, 80))})` };
    },
  };
}
