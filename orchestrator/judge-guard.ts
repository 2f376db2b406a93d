import { ErrorCode } from '../protocol/index.js';
import type { Scenario } from '../scenarios/model.js';

/** Judge-only text shorter than this is not guarded: a short phrase could occur in ordinary speech. */
const MIN_GUARDED_LENGTH = 12;

/** Thrown when an outbound frame would carry judge-only text: a bug in a projection, never expected. */
export class JudgeOnlyLeak extends Error {
  readonly code = ErrorCode.JudgeOnlyLeak;
  constructor(readonly scenarioId: string, readonly frameType: string) {
    super(`refusing to send a ${frameType} frame carrying judge-only text of scenario ${scenarioId}`);
  }
}

/**
 * Defence in depth for DESIGN invariant 3: every serialised frame leaving for a seat passes this check.
 * `observe()` never reads `judgeOnly`; this catches any future path that would. Public move echoes
 * (`turn.event`) are exempt: they repeat what a seat itself said, which cannot come from judge-only text.
 */
export function judgeOnlyGuard(scenario: Scenario): (frameType: string, serialised: string) => void {
  const secret = scenario.judgeOnly.trim();
  if (secret.length < MIN_GUARDED_LENGTH) return () => {};
  const escaped = JSON.stringify(secret).slice(1, -1);
  return (frameType, serialised) => {
    if (frameType === 'turn.event') return;
    if (serialised.includes(escaped)) throw new JudgeOnlyLeak(scenario.id, frameType);
  };
}
