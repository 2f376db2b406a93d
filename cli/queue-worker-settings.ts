import type { FlagValue } from './args.js';

/**
 * Flags `parley run --queue` would accept and not apply: the coordinator runs no episode and serves no
 * seat, so how many episodes run at once and how agent processes are shared are each worker's own flags
 * (`parley worker --concurrency N --multiplex --seats-per-process N`), and no browser ever reaches it.
 * Before this they were taken and written into run.json's config, which then misstated how the run ran.
 * An experiment file's `concurrency:` and `pool:` are not refused: one file serves both executors
 * (examples/paper.yaml sets concurrency 8). The coordinator says they are not applied and run.json
 * records them under `notApplied`, not in its `config` (queue/worker-decided-settings.ts).
 * @returns the refusal (one line), or null
 */
export function queueIgnoredFlag(flags: Record<string, FlagValue>): string | null {
  const given = ['concurrency', 'multiplex', 'seats-per-process'].filter((f) => flags[f] !== undefined && flags[f] !== false);
  if (given.length) return `${given.map((f) => `--${f}`).join(', ')}: with --queue each worker decides (parley worker --concurrency N --multiplex --seats-per-process N); the coordinator runs no episode`;
  if (flags['allow-origin'] !== undefined) return '--allow-origin: with --queue no browser reaches the coordinator (it serves no seat or page)';
  return null;
}
