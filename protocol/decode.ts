import type * as z from 'zod';
import { ErrorCode } from './codes.js';
import { AgentFrame, OrchestratorFrame } from './frames.js';
import { MAX_FRAME_BYTES, PROTOCOL_VERSION } from './version.js';

/** Result of decoding raw wire data: a frame, or a code saying why not (never throws). */
export type Decoded<F> =
  | { ok: true; frame: F }
  | { ok: false; code: ErrorCode; message: string; re?: string };

function decodeWith<F>(schema: z.ZodType<F>, raw: string | Buffer): Decoded<F> {
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
  const re = typeof data === 'object' && data !== null && typeof (data as { id?: unknown }).id === 'string'
    ? ((data as { id: string }).id).slice(0, 64)
    : undefined;
  if (typeof data === 'object' && data !== null && 'v' in data && (data as { v: unknown }).v !== PROTOCOL_VERSION) {
    return { ok: false, code: ErrorCode.VersionMismatch, message: `protocol version must be ${PROTOCOL_VERSION}`, re };
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : '(frame)';
    return { ok: false, code: ErrorCode.BadFrame, message: `${where}: ${issue?.message ?? 'invalid'}`, re };
  }
  return { ok: true, frame: parsed.data };
}

/** Decode a frame an agent sent. Used by the orchestrator at its socket edge only. */
export const decodeAgentFrame = (raw: string | Buffer): Decoded<AgentFrame> => decodeWith(AgentFrame, raw);
/** Decode a frame the orchestrator sent. Used by agent-node at its socket edge only. */
export const decodeOrchestratorFrame = (raw: string | Buffer): Decoded<OrchestratorFrame> =>
  decodeWith(OrchestratorFrame, raw);
