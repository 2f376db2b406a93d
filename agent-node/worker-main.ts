/**
 * The body of a pooled agent-node process (started by ./worker.ts, or from the start-up snapshot by
 * ./snapshot-entry.ts), forked by the orchestrator's supervisor (`fork(worker.ts, { execArgv:
 * ['--import', 'tsx'] })`). IPC contract (schemas in protocol/worker-ipc.ts):
 *   parent → child  {type:'host', url, token, policy}   play that seat
 *   child → parent  {type:'ready'}                       once, at start
 *   child → parent  {type:'released', token, ok, error?} when that seat's connection ended
 *   parent → child  {type:'warm', policies}               load those policies' modules ahead of any seat
 *   child → parent  {type:'warmed', error?}              done warming
 *   parent → child  {type:'drop', token, reason}         stop playing that seat only (the others go on)
 * Several `host` messages may be in flight at once (multiplexed mode; the parent guarantees they belong to
 * different episodes). Each seat gets its own policy instance. Exits when the IPC channel disconnects.
 */
import { ParentToWorker, type WorkerHost, type WorkerToParent } from '../protocol/index.js';
import { createPolicy } from './policies/registry.js';
import { playSeat, type SeatSession } from './seat-client.js';
import { tuneForModelSeat } from './v8-tiering.js';
import { BusyCloseLog } from './busy-close-log.js';

const log = (line: string) => process.stderr.write(`[agent-worker ${process.pid}] ${line}\n`);
/** The process's busy closes, summed (one line a seat was ~2,000 lines in a burst of joins). */
const busyCloses = new BusyCloseLog(log);

function tell(message: WorkerToParent): void {
  if (process.connected && process.send) process.send(message);
}

const sessions = new Map<string, SeatSession>();

async function host(url: string, token: string, config: WorkerHost['policy'], resume?: string): Promise<void> {
  let error: string | undefined;
  let ok = false;
  try {
    tuneForModelSeat(config);
    const policy = await createPolicy(config);
    const session = playSeat({ url, token, ...(resume !== undefined ? { resume } : {}), policy, log: (line) => log(`seat ${token.slice(0, 6)}…: ${line}`), busyLog: (line) => busyCloses.note(`seat ${token.slice(0, 6)}…: ${line}`) });
    sessions.set(token, session);
    const outcome = await session.done;
    ok = outcome.status === 'ended';
    if (outcome.status !== 'ended') error = `${outcome.code}: ${outcome.message}`;
    await policy.close?.().catch((err: unknown) => log(`policy close failed: ${(err as Error).message}`));
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    error = `${typeof code === 'string' ? `${code}: ` : ''}${(err as Error).message ?? String(err)}`;
  } finally {
    sessions.delete(token);
  }
  tell({ type: 'released', token, ok, ...(error !== undefined && { error }) });
}

/** Builds each policy once and lets it load its SDK, then drops it: the modules stay loaded. */
async function warm(policies: WorkerHost['policy'][]): Promise<void> {
  const errors: string[] = [];
  for (const config of policies) {
    tuneForModelSeat(config);
    try {
      const policy = await createPolicy(config);
      await policy.warm?.();
      await policy.close?.();
    } catch (err) {
      errors.push(`${config.spec}: ${(err as Error).message}`);
    }
  }
  tell(errors.length ? { type: 'warmed', error: errors.join('; ') } : { type: 'warmed' });
}

/** Starts the process's work: listens to its parent and says `ready`. */
export function runWorker(): void {
  if (!process.send) {
    log('must be started by the orchestrator with an IPC channel (child_process.fork)');
    process.exit(2);
  }
  process.on('message', (raw: unknown) => {
    const parsed = ParentToWorker.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      log(`ignored an invalid IPC message: ${issue?.path.join('.') || '(message)'}: ${issue?.message ?? 'invalid'}`);
      return;
    }
    if (parsed.data.type === 'warm') {
      void warm(parsed.data.policies);
      return;
    }
    if (parsed.data.type === 'drop') {
      // Its `released` follows once the connection has closed, like any other seat's end.
      sessions.get(parsed.data.token)?.close(parsed.data.reason);
      return;
    }
    const { url, token, policy, resume } = parsed.data;
    if (sessions.has(token)) {
      log(`ignored a second host message for a seat already hosted here`);
      return;
    }
    // Reserve the token synchronously so a duplicate arriving while the policy loads is caught too.
    sessions.set(token, { done: new Promise(() => {}), view: () => null, close: () => {} });
    void host(url, token, policy, resume);
  });
  // The orchestrator went away (its IPC channel closed: it exited or was killed) or asks us to stop.
  const shutdown = (why: string) => {
    for (const session of sessions.values()) session.close(why);
    const done = [...sessions.values()].map((s) => s.done);
    // Give the sockets a moment to close cleanly, never longer.
    const timer = setTimeout(() => process.exit(0), 1000);
    void Promise.all(done).then(() => {
      clearTimeout(timer);
      process.exit(0);
    });
  };
  process.on('disconnect', () => shutdown('the orchestrator went away'));
  process.once('SIGTERM', () => shutdown('stopped by the orchestrator'));
  process.on('exit', () => busyCloses.flush());
  tell({ type: 'ready' });
}
