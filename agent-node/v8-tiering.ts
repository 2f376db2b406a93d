import { setFlagsFromString } from 'node:v8';
import { checkPolicySpec } from '../llm/spec.js';
import type { PolicyConfig } from '../protocol/index.js';

/**
 * V8 flags for an agent process that plays model seats (`openai:`, `mistral:`, `replay:`): no TurboFan,
 * and every function compiled straight to baseline (Sparkplug) code. Why: a model seat's turn runs a lot of
 * code (frame decode, prompt, HTTP request and answer, cassette, reply) a few hundred times over a process's
 * life, too rarely for TurboFan's work on a background thread to pay back, and long in the interpreter
 * before Sparkplug would pick it up. Measured (bench/turn-cpu.ts, A and B at the same time on the shared
 * machine, bench/agent-profile.md): agent CPU a warm turn −6 to −14 % at ten seats and at one seat per
 * process, peak RSS −3 to −8 MB (no optimised code kept).
 *
 * Set from inside the process, when its first model seat (or the pool's warm-up for one) arrives, not on
 * its command line: with any V8 flag there Node drops its built-in code cache (~24 ms more CPU a start);
 * set here, start-up CPU to `warmed` is unchanged (bench/start-cpu.ts-style, median of 15: 230 ms both) and
 * the turn path, compiled lazily at its first call, is still compiled under them. Processes that only
 * ever play bots keep TurboFan (a multiplexed bot process runs hot code: the mux1000 case).
 */
export const MODEL_SEAT_V8_FLAGS = '--no-opt --always-sparkplug';

/** Whether a seat's policy is a model's (an LLM spec or a replay of one's cassettes). */
export function isModelSeat(config: Pick<PolicyConfig, 'spec'>): boolean {
  const parsed = checkPolicySpec(config.spec.trim());
  return parsed.ok && (parsed.spec.kind === 'llm' || parsed.spec.kind === 'replay');
}

let tuned = false;

/** Sets MODEL_SEAT_V8_FLAGS once, at the first model seat this process is handed; bots change nothing. */
export function tuneForModelSeat(config: Pick<PolicyConfig, 'spec'>, set: (flags: string) => void = setFlagsFromString): void {
  if (tuned || !isModelSeat(config)) return;
  tuned = true;
  set(MODEL_SEAT_V8_FLAGS);
}
