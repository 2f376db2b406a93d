import {
  ErrorCode,
  ScriptFail,
  ScriptSubmit,
  TurnAct,
  TurnFail,
  MAX_FRAME_BYTES,
  compiledSchema,
  stamp,
  type AgentFrame,
  type AgentFrameBody,
  type ScriptRequest,
  type TurnMeta,
  type TurnRequest,
} from '../protocol/index.js';
import type { Policy, SeatView } from './policy.js';

/** Codes for failures the agent process itself detects around a policy call. */
export const RunnerErrorCode = {
  NoScriptWriter: ErrorCode.NoScriptWriter,
  InvalidOutput: ErrorCode.InvalidOutput,
  NotWelcomed: ErrorCode.NotWelcomed,
} as const;

const failMeta = (policy: Policy, started: number): TurnMeta => ({ policy: policy.spec, latencyMs: Math.max(0, performance.now() - started) });

/**
 * Waits for `work` until `deadlineMs` (+ `graceMs` for a policy that ignores its AbortSignal). The signal
 * fires at the deadline; a policy still silent after the grace counts as a missed deadline.
 */
async function withDeadline<T>(work: (signal: AbortSignal) => Promise<T>, deadlineMs: number, graceMs: number, outer: AbortSignal): Promise<{ ok: true; value: T } | { ok: false }> {
  const ac = new AbortController();
  const onOuter = () => ac.abort(outer.reason);
  outer.addEventListener('abort', onOuter, { once: true });
  let late!: (result: { ok: false }) => void;
  const hardStop = new Promise<{ ok: false }>((resolve) => (late = resolve));
  // One timer a turn: the grace's is armed only once the deadline has passed (almost never).
  let graceTimer: NodeJS.Timeout | undefined;
  const deadlineTimer = setTimeout(() => {
    ac.abort(new Error('turn deadline reached'));
    graceTimer = setTimeout(() => late({ ok: false }), graceMs);
  }, deadlineMs);
  try {
    return await Promise.race([work(ac.signal).then((value) => ({ ok: true as const, value })), hardStop]);
  } finally {
    clearTimeout(deadlineTimer);
    clearTimeout(graceTimer);
    outer.removeEventListener('abort', onOuter);
  }
}

/** The wire schema of each reply a policy run yields (the union's members, picked by type, not tried in turn). */
const REPLY_SCHEMA = { 'turn.act': TurnAct, 'turn.fail': TurnFail, 'script.submit': ScriptSubmit, 'script.fail': ScriptFail } as const;

/** Checks a reply against the wire schema and the size cap before it is sent: a bad one becomes a failure. */
function checked(body: AgentFrameBody, fallback: (message: string) => AgentFrameBody): AgentFrameBody {
  const frame = stamp<AgentFrame>(body, 'check');
  const schema = REPLY_SCHEMA[body.type as keyof typeof REPLY_SCHEMA] as (typeof REPLY_SCHEMA)[keyof typeof REPLY_SCHEMA] | undefined;
  if (!schema) return fallback(`policy output is not a reply frame: ${body.type}`);
  // zod's compiled fast path (protocol/decode.ts): the same verdict and issue, without the interpreter's cost.
  const parsed = compiledSchema(schema).safeParse(frame);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return fallback(`policy output is not a valid ${body.type} frame: ${issue?.path.join('.') || '(frame)'}: ${issue?.message ?? 'invalid'}`);
  }
  const size = Buffer.byteLength(JSON.stringify(frame));
  if (size > MAX_FRAME_BYTES) return fallback(`policy output of ${size} bytes exceeds the ${MAX_FRAME_BYTES}-byte frame cap`);
  return body;
}

/**
 * Asks the policy for this seat's move and turns the answer into the reply frame: `turn.act` for a move,
 * `turn.fail` for anything else — a policy error, a thrown bug, a missed deadline, an invalid move.
 * Never a `none` standing in for a failure.
 */
export async function runTurn(policy: Policy, view: SeatView | null, request: TurnRequest, opts: { graceMs: number; signal: AbortSignal }): Promise<AgentFrameBody> {
  const started = performance.now();
  const fail = (code: string, message: string, meta = failMeta(policy, started)): AgentFrameBody => ({ type: 'turn.fail', turn: request.turn, error: { code, message }, meta });
  if (!view) return fail(RunnerErrorCode.NotWelcomed, 'turn.request arrived before seat.welcome');
  try {
    const outcome = await withDeadline((signal) => policy.act(view, request, signal), request.deadlineMs, opts.graceMs, opts.signal);
    if (!outcome.ok) return fail(ErrorCode.DeadlineMissed, `policy ${policy.spec} did not answer within ${request.deadlineMs} ms`);
    const result = outcome.value;
    const body: AgentFrameBody = result.ok
      ? { type: 'turn.act', turn: request.turn, action: result.action, meta: result.meta }
      : { type: 'turn.fail', turn: request.turn, error: result.error, meta: result.meta };
    return checked(body, (message) => fail(RunnerErrorCode.InvalidOutput, message, result.meta));
  } catch (err) {
    return fail(ErrorCode.PolicyFailed, `policy ${policy.spec} threw: ${(err as Error)?.message ?? String(err)}`);
  }
}

/** Script mode: asks the policy for the whole dialogue; `script.submit` or `script.fail`. */
export async function runScript(policy: Policy, request: ScriptRequest, opts: { graceMs: number; signal: AbortSignal }): Promise<AgentFrameBody> {
  const started = performance.now();
  const fail = (code: string, message: string, meta = failMeta(policy, started)): AgentFrameBody => ({ type: 'script.fail', error: { code, message }, meta });
  const writeScript = policy.writeScript?.bind(policy);
  if (!writeScript) return fail(RunnerErrorCode.NoScriptWriter, `policy ${policy.spec} cannot write scripts`);
  try {
    const outcome = await withDeadline((signal) => writeScript(request, signal), request.limits.turnDeadlineMs, opts.graceMs, opts.signal);
    if (!outcome.ok) return fail(ErrorCode.DeadlineMissed, `policy ${policy.spec} did not write the script within ${request.limits.turnDeadlineMs} ms`);
    const result = outcome.value;
    const body: AgentFrameBody = result.ok
      ? { type: 'script.submit', turns: result.turns, meta: result.meta }
      : { type: 'script.fail', error: result.error, meta: result.meta };
    return checked(body, (message) => fail(RunnerErrorCode.InvalidOutput, message, result.meta));
  } catch (err) {
    return fail(ErrorCode.PolicyFailed, `policy ${policy.spec} threw: ${(err as Error)?.message ?? String(err)}`);
  }
}
