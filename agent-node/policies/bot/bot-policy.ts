import { BotErrorCode, ErrorCode, type Action, type FailureInfo, type ScriptRequest, type ScriptTurn, type TurnRequest } from '../../../protocol/index.js';
import { seatCapabilities } from '../../../simulation/index.js';
import type { MoveResult, Policy, ScriptResult, SeatView } from '../../policy.js';
import { fitAllowed } from './conversation.js';
import { paperBotMove, paperBotScript } from './spoken-moves.js';
import { whisperOption, withWhisper, type WhisperOption } from './whisper.js';

/** A bot's decision: a pure function of what the seat knows. Throws only on a bug. */
export type Decide = (view: SeatView, request: TurnRequest) => Action;

/** A bot's script: the whole dialogue, or an explicit failure (the wrapper adds the provenance). */
export type ScriptDraft = { ok: true; turns: ScriptTurn[] } | { ok: false; error: FailureInfo };
export type WriteScript = (request: ScriptRequest) => ScriptDraft;

/** The bots' failure codes live in the one registry (protocol/codes.ts); re-exported for the bots. */
export { BotErrorCode };

/** A bot failure a decision function throws on purpose (e.g. a Craigslist bot seated in MutualFriends). */
export class BotError extends Error {
  constructor(readonly code: BotErrorCode, message: string) {
    super(message);
    this.name = 'BotError';
  }
}

/** Bot settings from `PolicyConfig.params`. */
export interface BotOptions {
  /** Think time before each move, in ms (tests and load tests that need episodes to last; default 0). */
  delayMs?: number;
  /** A private move on one turn (`whisperTo`, `whisperAt`, `whisperText`: whisper.ts). */
  whisper?: WhisperOption;
}

/** Reads the bot settings a seat's `params` may carry; anything else is ignored. */
export function botOptions(params: Record<string, unknown> | undefined): BotOptions {
  const delay = Number(params?.delayMs ?? 0);
  const whisper = whisperOption(params);
  return { ...(Number.isFinite(delay) && delay > 0 ? { delayMs: delay } : {}), ...(whisper ? { whisper } : {}) };
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/**
 * Wraps a decision function as a Policy: measures latency, fits the move to the allowed actions, and turns
 * a thrown error into an explicit failure (never a `none`).
 */
export function botPolicy(spec: string, decide: Decide, writeScript?: WriteScript, options: BotOptions = {}): Policy {
  return {
    spec,
    async act(view, request, signal): Promise<MoveResult> {
      const started = performance.now();
      const meta = () => ({ policy: spec, latencyMs: Math.round((performance.now() - started) * 1000) / 1000 });
      if (options.delayMs) await sleep(options.delayMs, signal);
      if (signal.aborted) return { ok: false, error: { code: ErrorCode.DeadlineMissed, message: 'aborted before the bot ran' }, meta: meta() };
      try {
        // Without task moves (--protocol paper) the bot says its choices (spoken-moves.ts).
        const chosen = seatCapabilities(view.welcome.protocol).taskMoves ? decide(view, request) : paperBotMove(view, (v) => decide(v, request));
        const action = withWhisper(options.whisper, view, request, fitAllowed(chosen, request.actions));
        return { ok: true, action, meta: meta() };
      } catch (err) {
        const code = err instanceof BotError ? err.code : ErrorCode.PolicyFailed;
        return { ok: false, error: { code, message: (err as Error).message }, meta: meta() };
      }
    },
    ...(writeScript && {
      async writeScript(request: ScriptRequest, signal: AbortSignal): Promise<ScriptResult> {
        const started = performance.now();
        if (options.delayMs) await sleep(options.delayMs, signal);
        try {
          const draft = writeScript(request);
          const { kind, seats } = request.background.scenario;
          const result = draft.ok && !seatCapabilities(request.protocol).taskMoves ? { ok: true as const, turns: paperBotScript(kind, seats, draft.turns) } : draft;
          return { ...result, meta: { policy: spec, latencyMs: performance.now() - started } };
        } catch (err) {
          const code = err instanceof BotError ? err.code : ErrorCode.PolicyFailed;
          return { ok: false, error: { code, message: (err as Error).message }, meta: { policy: spec, latencyMs: performance.now() - started } };
        }
      },
    }),
  };
}
