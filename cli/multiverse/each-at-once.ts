/**
 * Runs `fn` over `items`, `atOnce` at a time, in order. After the first failure no further item starts
 * (those in flight finish), and once every started one has settled the first error is thrown. So whatever
 * the caller holds for the items (multiverse: the pool lender's agent processes) is released only when no
 * item can still borrow from it, and a failed arm does not let the sweep run on unseen behind its error.
 * An aborted `signal` also stops new items from starting (the caller reports the interruption).
 */
export async function eachAtOnce<T>(items: readonly T[], atOnce: number, fn: (item: T) => Promise<void>, signal?: AbortSignal): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async () => {
    while (next < items.length && !signal?.aborted && !failure) {
      const item = items[next++]!;
      try {
        await fn(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, lane));
  if (failure) throw failure.error;
}
