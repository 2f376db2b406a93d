import { AsyncLocalStorage } from 'node:async_hooks';

/** The signal one LLM attempt runs under, with what fired it. */
export interface AttemptSignal {
  readonly signal: AbortSignal;
  /** True once the attempt's own timeout (not the caller) fired. */
  timedOut(): boolean;
  /** Stops the timer and detaches from the caller's signal; call when the attempt is over. */
  dispose(): void;
}

/**
 * The caller's abort or the attempt's timeout, whichever comes first, on a plain `AbortController` that its
 * own timer and the caller's listener hold strongly.
 *
 * Why not `AbortSignal.timeout` and `AbortSignal.any`: on Node 20 (undici 6) the signals between them and a
 * running `fetch` are linked by weak references. A garbage collection while the server hangs can drop a
 * link, and the request then never ends (test/llm/gc-abort.test.ts reproduces it).
 */
export function attemptSignal(timeoutMs: number, caller?: AbortSignal): AttemptSignal {
  const controller = new AbortController();
  let timedOut = false;
  const onCallerAbort = () => controller.abort(caller!.reason);
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`no reply within ${timeoutMs} ms`, 'TimeoutError'));
  }, timeoutMs);
  if (caller?.aborted) onCallerAbort();
  else caller?.addEventListener('abort', onCallerAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose() {
      clearTimeout(timer);
      caller?.removeEventListener('abort', onCallerAbort);
    },
  };
}

/**
 * The signal of the LLM call running in this async context, for an SDK's `fetch` to use directly.
 *
 * The Mistral SDK builds a `Request` with the call's signal, clones it, and fetches the clone: three hops
 * linked weakly (see `attemptSignal`), and a collection during a hang broke them even with a strongly held
 * signal. Its HTTP client's fetcher reads the call's signal from here and hands it to `fetch` itself.
 * Made on first use: the agent's start-up snapshot evaluates this module, and async_hooks' state is not
 * one Node 20 carries over a snapshot (orchestrator/supervisor/snapshot-deferred.ts).
 */
let store: AsyncLocalStorage<AbortSignal> | undefined;
const callSignal = () => (store ??= new AsyncLocalStorage<AbortSignal>());

/** Runs `fn` with `signal` as the signal its SDK fetches use (`fetchWithCallSignal`). */
export function withCallSignal<T>(signal: AbortSignal, fn: () => Promise<T>): Promise<T> {
  return callSignal().run(signal, fn);
}

/** A `fetch` for an SDK's HTTP client: the request with this context's call signal, when there is one. */
export function fetchWithCallSignal(input: Request | string | URL, init?: RequestInit): Promise<Response> {
  const signal = callSignal().getStore();
  if (signal) return fetch(input, { ...init, signal });
  return init == null ? fetch(input) : fetch(input, init);
}
