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

/** The dimensions (with ranges) a judge request's schema asks of each seat: seat → [name, min, max][]. */
export function requestedDimensions(schema: Record<string, unknown>): Record<string, [string, number, number][]> {
  type Obj = { properties?: Record<string, Obj>; minimum?: number; maximum?: number };
  const seats = (schema as Obj).properties?.['evaluations']?.properties ?? {};
  return Object.fromEntries(
    Object.entries(seats).map(([seat, s]) => [seat, Object.entries(s.properties ?? {}).map(([d, x]): [string, number, number] => [d, x.properties!['score']!.minimum!, x.properties!['score']!.maximum!])]),
  );
}

/** A valid reply to whatever rubric the schema carries: each dimension at `score(dim, seat, min, max)`, default its max. */
export function replyForSchema(schema: Record<string, unknown>, score?: (dim: string, seat: string, min: number, max: number) => number): Record<string, unknown> {
  const evaluations: Record<string, unknown> = {};
  for (const [seat, dims] of Object.entries(requestedDimensions(schema))) {
    evaluations[seat] = Object.fromEntries(dims.map(([d, min, max]) => [d, { reasoning: `${seat} ${d} reasoning`, score: score ? score(d, seat, min, max) : max }]));
  }
  return { evaluations };
}

/**
 * A stored judgement by `judge` (its spec, view, rubric …) that scored each of `seats` as `validReply`
 * does (`score(dim, seat)`, default each dimension's max), made in one call at a fixed time.
 */
export function judgementOf(judge: Record<string, unknown>, seats: readonly string[] = ['a', 'b'], score?: (dim: string, seat: string) => number) {
  const reply = validReply(seats, score ? { score } : {}) as { evaluations: Record<string, unknown> };
  return {
    judge,
    evaluatedAt: '2024-01-01T00:00:00.000Z',
    seats: Object.fromEntries(seats.map((s) => [s, { ok: true, scores: reply.evaluations[s] }])),
    calls: 1,
    usage: { prompt: 1, completion: 1 },
    latencyMs: 1,
  };
}
