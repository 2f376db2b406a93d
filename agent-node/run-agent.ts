import type { PolicyConfig } from '../protocol/index.js';
import type { Policy } from './policy.js';
import { PolicyConfigError } from './policies/errors.js';
import { createPolicy } from './policies/registry.js';
import { playSeat, type SeatOutcome } from './seat-client.js';

/** Exit codes of `parley agent`. */
export const AgentExit = {
  Ok: 0,
  /** Bad command line or policy spec. */
  Usage: 2,
  /** The orchestrator refused the join (bad or used token, seat taken). */
  Refused: 3,
  /** The connection failed or was lost for good. */
  ConnectionFailed: 4,
  /** Stopped by a signal (Ctrl-C). */
  Interrupted: 130,
} as const;

export interface RunAgentOptions {
  url: string;
  token: string;
  policy: PolicyConfig;
  /** Where progress and errors go (stderr by default; stdout stays free for a human player). */
  log?: (line: string) => void;
  reconnect?: { attempts?: number; initialAttempts?: number; baseDelayMs?: number; maxDelayMs?: number };
}

/**
 * Plays one seat from the command line: builds the policy, joins, plays until the episode ends.
 * Returns the process exit code; every non-zero code comes with a line saying what went wrong.
 */
export async function runAgent(opts: RunAgentOptions): Promise<number> {
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  let policy: Policy;
  try {
    policy = await createPolicy(opts.policy);
  } catch (err) {
    const code = err instanceof PolicyConfigError ? ` (${err.code})` : '';
    log(`parley agent: cannot create policy '${opts.policy.spec}'${code}: ${(err as Error).message}`);
    return AgentExit.Usage;
  }
  const session = playSeat({ url: opts.url, token: opts.token, policy, reconnect: opts.reconnect, log: (line) => log(`parley agent: ${line}`) });
  let interrupted = false;
  const onSignal = () => {
    interrupted = true;
    session.close('interrupted');
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let outcome: SeatOutcome;
  try {
    outcome = await session.done;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await policy.close?.().catch(() => {});
  }
  if (interrupted) {
    log('parley agent: interrupted; left the seat');
    return AgentExit.Interrupted;
  }
  switch (outcome.status) {
    case 'ended':
      log(`parley agent: episode ended (${outcome.reason})`);
      return AgentExit.Ok;
    case 'refused':
      log(`parley agent: the orchestrator at ${opts.url} refused the join (${outcome.code}): ${outcome.message}`);
      return AgentExit.Refused;
    case 'failed':
      log(`parley agent: connection failed (${outcome.code}): ${outcome.message}`);
      return AgentExit.ConnectionFailed;
  }
}
