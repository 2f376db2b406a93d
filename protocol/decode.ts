import * as z from 'zod';
import { ErrorCode } from './codes.js';
import { AgentFrame, OrchestratorFrame, Ping, Pong, TurnAct, TurnEvent, TurnRequest } from './frames.js';
import { MAX_FRAME_BYTES, PROTOCOL_VERSION } from './version.js';

/** Result of decoding raw wire data: a frame, or a code saying why not (never throws). */
export type Decoded<F> =
  | { ok: true; frame: F }
  | { ok: false; code: ErrorCode; message: string; re?: string };

/**
 * The frame kinds every turn carries, each with its own schema: the one the discriminated union picks for
 * that `type`. They are checked through zod's compiled fast path (`z.compile`: generated code for valid
 * input; any other input falls back to the same schema's own parser, so what is accepted, what is refused
 * and the issue named do not change: protocol/compiled-decode.test.ts runs both on valid and mutated
 * frames). zod's interpreter costs 20-100 µs a frame in an agent process, whose code runs without TurboFan
 * (agent-node/v8-tiering.ts); the generated code a few µs (bench/agent-profile.md, fourth pass).
 */
const HOT_AGENT_FRAMES: ReadonlyMap<string, z.ZodType> = new Map<string, z.ZodType>([['turn.act', TurnAct], ['pong', Pong]]);
const HOT_ORCHESTRATOR_FRAMES: ReadonlyMap<string, z.ZodType> = new Map<string, z.ZodType>([['turn.event', TurnEvent], ['turn.request', TurnRequest], ['ping', Ping]]);

/** Compiled on first use (generating one costs 2-15 ms; a process decodes only one side's frames). */
const compiledSchemas = new WeakMap<z.ZodType, z.ZodType>();

/** `schema` with zod's compiled fast path: the same answers, faster on valid input. */
export function compiledSchema<T extends z.ZodType>(schema: T): T {
  let compiled = compiledSchemas.get(schema);
  if (!compiled) {
    compiled = z.compile(schema);
    compiledSchemas.set(schema, compiled);
  }
  return compiled as T;
}

/** Values each schema has been asked to check in this process (`compiledForMany`). */
const checkedCount = new WeakMap<z.ZodType, number>();

/**
 * Values a schema checks, in one process, before its compiled fast path pays: generating the code costs
 * 5-50 ms (EpisodeRecord, OrchestratorFrame ~50), and zod's interpreter checks a cold record in ~0.2-0.4 ms,
 * the compiled code in a tenth of that once warm. A run of a few episodes never compiles; a read of a paper
 * grid's episodes.jsonl (1,350 records) or an export over its ledgers does.
 */
const COMPILE_AFTER = 300;

/**
 * `schema` for a read of `count` more values (the lines of a run directory's file): the compiled fast path
 * once this process has checked COMPILE_AFTER values with it, the plain parser before. Either gives the same
 * answers, output and issues (a value the generated code refuses goes to the schema's own parser).
 */
export function compiledForMany<T extends z.ZodType>(schema: T, count: number): T {
  const total = (checkedCount.get(schema) ?? 0) + count;
  checkedCount.set(schema, total);
  return total >= COMPILE_AFTER ? compiledSchema(schema) : schema;
}

/** Compiles the hot frames' schemas now (the agent's start-up snapshot holds them compiled). */
export function compileHotFrameSchemas(): void {
  for (const schema of [...HOT_AGENT_FRAMES.values(), ...HOT_ORCHESTRATOR_FRAMES.values()]) compiledSchema(schema);
}

function decodeWith<F>(schema: z.ZodType<F>, hot: ReadonlyMap<string, z.ZodType>, raw: string | Buffer): Decoded<F> {
  const size = typeof raw === 'string' ? Buffer.byteLength(raw) : raw.length;
  if (size > MAX_FRAME_BYTES) {
    return { ok: false, code: ErrorCode.FrameTooLarge, message: `frame of ${size} bytes exceeds ${MAX_FRAME_BYTES}` };
  }
  let data: unknown;
  try {
    data = JSON.parse(typeof raw === 'string' ? raw : raw.toString('utf8'));
  } catch {
    return { ok: false, code: ErrorCode.BadFrame, message: 'frame is not valid JSON' };
  }
  const isObject = typeof data === 'object' && data !== null;
  const re = isObject && typeof (data as { id?: unknown }).id === 'string'
    ? ((data as { id: string }).id).slice(0, 64)
    : undefined;
  if (isObject && 'v' in (data as object) && (data as { v: unknown }).v !== PROTOCOL_VERSION) {
    return { ok: false, code: ErrorCode.VersionMismatch, message: `protocol version must be ${PROTOCOL_VERSION}`, re };
  }
  const type = isObject ? (data as { type?: unknown }).type : undefined;
  const member = typeof type === 'string' ? hot.get(type) : undefined;
  const parsed = (member ? compiledSchema(member) : schema).safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : '(frame)';
    return { ok: false, code: ErrorCode.BadFrame, message: `${where}: ${issue?.message ?? 'invalid'}`, re };
  }
  return { ok: true, frame: parsed.data as F };
}

/** Decode a frame an agent sent. Used by the orchestrator at its socket edge only. */
export const decodeAgentFrame = (raw: string | Buffer): Decoded<AgentFrame> => decodeWith(AgentFrame, HOT_AGENT_FRAMES, raw);
/** Decode a frame the orchestrator sent. Used by agent-node at its socket edge only. */
export const decodeOrchestratorFrame = (raw: string | Buffer): Decoded<OrchestratorFrame> =>
  decodeWith(OrchestratorFrame, HOT_ORCHESTRATOR_FRAMES, raw);
