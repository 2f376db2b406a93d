import type { FakeReply, ReceivedRequest } from '../testkit/fake-llm-server.js';
import { isScriptRequest } from '../testkit/fake-llm-plausible.js';

/**
 * The benchmark's model: after `delayMs`, every move is a `speak` (so each episode runs its full length)
 * and every script request gets the fake server's plausible script.
 */
export function benchModel(delayMs: number): (req: ReceivedRequest) => FakeReply {
  const move = JSON.stringify({ action_type: 'speak', argument: 'That is interesting; tell me a little more about how you see it.' });
  return (req) => (isScriptRequest(req.body) ? { kind: 'plausible', delayMs } : { kind: 'content', content: move, delayMs });
}

/** Agent policy for the fake server (the key variable is set in the case's environment). */
export const BENCH_KEY_ENV = 'PARLEY_BENCH_KEY';
export const benchPolicy = (baseURL: string) => ({ spec: 'openai:bench-model', baseURL, apiKeyEnv: BENCH_KEY_ENV });
