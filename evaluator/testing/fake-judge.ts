import type { ChatRequest, ChatResponse, LlmClient } from '../../llm/types.js';
import { DIMENSIONS } from '../dimensions.js';

/** Valid scores for the given seats (each dimension at `score(dim)`, default its max). */
export function validReply(seats: readonly string[], opts: { score?: (dim: string, seat: string) => number; deal?: { deal_reached: boolean; price: number | null } } = {}): Record<string, unknown> {
  const evaluations: Record<string, unknown> = {};
  for (const seat of seats) {
    evaluations[seat] = Object.fromEntries(DIMENSIONS.map((d) => [d.name, { reasoning: `${seat} ${d.name} reasoning`, score: opts.score ? opts.score(d.name, seat) : d.max }]));
  }
  const out: Record<string, unknown> = { evaluations };
  if (opts.deal) out['deal'] = { reasoning: 'deal reasoning', ...opts.deal };
  return out;
}

/** Seat ids a judge request asks about, read from its JSON schema. */
export function requestedSeats(req: { json?: { schema: Record<string, unknown> } | undefined }): string[] {
  const props = (req.json?.schema['properties'] as Record<string, { properties?: Record<string, unknown> }> | undefined)?.['evaluations']?.properties;
  return Object.keys(props ?? {});
}

/** An in-memory LlmClient answering from a script of replies (a string, or an Error to throw). */
export class ScriptedClient implements LlmClient {
  readonly provider = 'fake';
  readonly model = 'fake-judge';
  readonly requests: ChatRequest[] = [];
  constructor(private readonly answer: (req: ChatRequest, n: number) => string | Error) {}
  async chat(req: ChatRequest): Promise<ChatResponse> {
    this.requests.push(req);
    const a = this.answer(req, this.requests.length - 1);
    if (a instanceof Error) throw a;
    return { content: a, usage: { prompt: 10, completion: 5, cached: 0 }, model: this.model, latencyMs: 1, retries: 0 };
  }
}
