import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { expectSame, mutate, rng } from '../test/helpers/schema-mutations.js';
import { compiledSchema, decodeAgentFrame, decodeOrchestratorFrame, type Decoded } from './decode.js';
import { AgentFrame, OrchestratorFrame, Ping, Pong, TurnAct, TurnEvent, TurnRequest } from './frames.js';

/**
 * The hot frames (turn.event, turn.request, ping in; turn.act, pong out) are decoded through zod's compiled
 * fast path (protocol/decode.ts). It must accept and refuse exactly what the schemas do, with the same
 * output (defaults filled, keys in the schema's order) and the same issues: each check below runs the
 * compiled path and the union's own parser side by side on valid frames and on thousands of mutations of
 * them (a field removed, added, retyped, pushed past a bound, given a control character).
 */

const meta = {
  policy: 'openai:gpt-4o-mini',
  provider: 'openai',
  model: 'gpt-4o-mini',
  params: { temperature: 0.7, stop: ['\n'] },
  latencyMs: 203.5,
  usage: { prompt: 812, completion: 31, cached: 0 },
  repairs: { lenient: 0, reformat: 1 },
  reformatModel: 'openai:gpt-3.5-turbo',
  retries: 2,
  fallbacks: { rejected: 1, jsonMode: 1, prompt: 0 },
};
const game = { phase: 'night', title: 'Night 1', round: 1, act: 'move', to: ['b'], move: { verb: 'attack', effect: 'attack', targets: ['b', 'c'] } };

const ORCHESTRATOR_FRAMES: Record<string, unknown>[] = [
  { v: 1, id: 'o-1', type: 'turn.event', turn: 0, seat: 'agent1', action: { type: 'speak', argument: 'Hello there. How are you?' } },
  { v: 1, id: 'o-2', type: 'turn.event', turn: 7, seat: 'agent2', action: { type: 'none', argument: '' } },
  { v: 1, id: 'o-3', type: 'turn.event', turn: 3, seat: 'a', action: { type: 'speak', argument: 'psst', to: ['b'] }, to: ['a', 'b'] },
  { v: 1, id: 'o-4', type: 'turn.request', turn: 4, actions: ['none', 'speak', 'non-verbal communication', 'action', 'leave'], deadlineMs: 60_000 },
  { v: 1, id: 'o-5', type: 'turn.request', turn: 9, actions: ['speak'], deadlineMs: 1, game },
  { v: 1, id: 'o-6', type: 'ping', nonce: 'n-1' },
];
const AGENT_FRAMES: Record<string, unknown>[] = [
  { v: 1, id: 'a-1', type: 'turn.act', turn: 4, action: { type: 'speak', argument: 'Sure.' }, meta },
  { v: 1, id: 'a-2', type: 'turn.act', turn: 0, action: { type: 'leave', argument: '' }, meta: { policy: 'bot:chatter', latencyMs: 0 } },
  // `cached` absent: the schema's default fills it in.
  { v: 1, id: 'a-3', type: 'turn.act', turn: 2, action: { type: 'action', argument: 'waves', to: ['agent2'] }, meta: { policy: 'p', latencyMs: 1, usage: { prompt: 1, completion: 2 } } },
  { v: 1, id: 'a-4', type: 'pong', nonce: 'n-1' },
];

/** The answer of the union's own parser: what the edge decoded before the compiled fast path. */
function reference(schema: z.ZodType, data: unknown) {
  return schema.safeParse(data);
}

/** The compiled path as the edge takes it: the member schema of the frame's type, compiled. */
function compiledAnswer(members: Map<string, z.ZodType>, union: z.ZodType, data: unknown) {
  const type = data && typeof data === 'object' ? (data as { type?: unknown }).type : undefined;
  const member = typeof type === 'string' ? members.get(type) : undefined;
  return (member ? compiledSchema(member) : union).safeParse(data);
}

const SIDES = [
  { name: 'orchestrator → agent', union: OrchestratorFrame as z.ZodType, members: new Map<string, z.ZodType>([['turn.event', TurnEvent], ['turn.request', TurnRequest], ['ping', Ping]]), frames: ORCHESTRATOR_FRAMES },
  { name: 'agent → orchestrator', union: AgentFrame as z.ZodType, members: new Map<string, z.ZodType>([['turn.act', TurnAct], ['pong', Pong]]), frames: AGENT_FRAMES },
];

describe('the compiled fast path of the hot frames', () => {
  it('is really compiled for every hot frame (a schema zod cannot compile would silently lose the speed)', () => {
    for (const schema of [TurnEvent, TurnRequest, Ping, TurnAct, Pong]) {
      expect(() => z.compile(schema as z.ZodType, { strict: true })).not.toThrow();
      expect(compiledSchema(schema as z.ZodType)).not.toBe(schema);
    }
  });

  it.each(SIDES)('accepts and refuses what the union does, with the same output and issues ($name)', ({ union, members, frames }) => {
    const next = rng(44);
    let accepted = 0;
    let refused = 0;
    for (const frame of frames) {
      expectSame(compiledAnswer(members, union, frame), reference(union, frame), `valid ${JSON.stringify(frame)}`);
      for (let i = 0; i < 600; i++) {
        const mutated = mutate(frame, next);
        const ref = reference(union, mutated);
        expectSame(compiledAnswer(members, union, mutated), ref, `case ${i} of ${JSON.stringify(frame).slice(0, 60)}: ${JSON.stringify(mutated).slice(0, 400)}`);
        if (ref.success) accepted++;
        else refused++;
      }
    }
    // Both verdicts were exercised many times (the mutations are not all fatal, nor all harmless).
    expect(accepted).toBeGreaterThan(300);
    expect(refused).toBeGreaterThan(1500);
  });

  it('answers a policy\'s own reply object (fields set to undefined, no JSON round trip) as the schema does', () => {
    const next = rng(7);
    for (let i = 0; i < 500; i++) {
      const reply = structuredClone(AGENT_FRAMES[i % 3]!) as { meta: Record<string, unknown>; action: Record<string, unknown> };
      const key = Object.keys(reply.meta)[Math.floor(next() * Object.keys(reply.meta).length)]!;
      reply.meta[key] = undefined;
      if (next() < 0.3) reply.action.to = undefined;
      expectSame(compiledSchema(TurnAct as z.ZodType).safeParse(reply), TurnAct.safeParse(reply), JSON.stringify(reply));
    }
  });
});

/** decode.ts before the fast path: the union's parser on the parsed JSON, the same envelope checks. */
function decodeAsBefore(union: z.ZodType, raw: string): Decoded<unknown> {
  const data = JSON.parse(raw) as unknown;
  const re = data && typeof data === 'object' && typeof (data as { id?: unknown }).id === 'string' ? (data as { id: string }).id.slice(0, 64) : undefined;
  if (data && typeof data === 'object' && 'v' in data && (data as { v: unknown }).v !== 1) return { ok: false, code: 'protocol/version_mismatch', message: 'protocol version must be 1', re } as Decoded<unknown>;
  const parsed = union.safeParse(data);
  if (parsed.success) return { ok: true, frame: parsed.data };
  const issue = parsed.error.issues[0];
  return { ok: false, code: 'protocol/bad_frame', message: `${issue?.path.length ? issue.path.join('.') : '(frame)'}: ${issue?.message ?? 'invalid'}`, re } as Decoded<unknown>;
}

describe('decodeOrchestratorFrame and decodeAgentFrame with the fast path', () => {
  it('give the decoded frame or the refusal they gave before, on the wire text', () => {
    const next = rng(1);
    const texts: [z.ZodType, (raw: string) => Decoded<unknown>, string][] = [];
    for (const side of SIDES) {
      const decode = side.union === OrchestratorFrame ? decodeOrchestratorFrame : decodeAgentFrame;
      for (const frame of side.frames) {
        texts.push([side.union, decode, JSON.stringify(frame)]);
        for (let i = 0; i < 200; i++) texts.push([side.union, decode, JSON.stringify(mutate(frame, next))]);
        // Keys JSON.parse makes own properties that an object literal would not: refused as unknown keys.
        texts.push([side.union, decode, JSON.stringify(frame).replace(/^\{/, '{"__proto__":{"x":1},')]);
        texts.push([side.union, decode, JSON.stringify(frame).replace(/"action":\{/, '"action":{"__proto__":{"type":"speak"},')]);
      }
    }
    for (const [union, decode, raw] of texts) expect(decode(raw), raw.slice(0, 300)).toStrictEqual(decodeAsBefore(union, raw));
  });
});
