/**
 * Ctrl-C for commands that pay for calls (eval, compare): the first stops new calls and lets those in
 * flight finish, abandoning them after a bound; the second quits at once. What a call returned is
 * already on disk by then (each command's journal), so neither loses anything paid for.
 */

/** How long the calls in flight may run on after the first Ctrl-C before they are abandoned. */
export const STOP_BOUND_MS = 30_000;

export interface InterruptStages {
  /** Fires at the first Ctrl-C (or SIGTERM): start nothing new. */
  signal: AbortSignal;
  /** Fires STOP_BOUND_MS after it: cut the calls still in flight short. */
  abandon: AbortSignal;
  dispose(): void;
}

export function interruptStages(on: { first(): void; second(): void }, boundMs = STOP_BOUND_MS): InterruptStages {
  const stop = new AbortController();
  const abandon = new AbortController();
  let bound: NodeJS.Timeout | undefined;
  const onSignal = () => {
    if (stop.signal.aborted) return on.second();
    on.first();
    stop.abort();
    // Unref'd: a command whose calls all finished exits without waiting for the bound.
    bound = setTimeout(() => abandon.abort(), boundMs).unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: stop.signal,
    abandon: abandon.signal,
    dispose: () => {
      clearTimeout(bound);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
