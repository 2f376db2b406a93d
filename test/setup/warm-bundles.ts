import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/**
 * Builds the CLI's and the agent processes' bundles (and the agent's start-up snapshots: default, bot and one-seat flags) once, before any test starts. After `npm ci` (as in
 * CI) the cache is empty, and without this the first CLI commands and runs of both workers, started at
 * once, each built the same bundle (~0.5–1 s of CPU apiece). With a warm cache this is a quick check.
 * In child processes: the build stops esbuild's service when done, and Vitest's own transforms use it here.
 * A failure is not fatal: each command still builds, or falls back to the sources, on its own.
 */
const run = promisify(execFile);
const worker =
  "const { bundledWorker } = await import('./orchestrator/supervisor/worker-bundle.ts'); const { agentEntry } = await import('./orchestrator/supervisor/agent-entry.ts'); await bundledWorker(agentEntry()); const { workerSnapshot } = await import('./orchestrator/supervisor/worker-snapshot.ts'); const { BOT_PROCESS_NODE_FLAGS } = await import('./orchestrator/supervisor/bot-process-flags.ts'); const { ONE_SEAT_PROCESS_NODE_FLAGS } = await import('./orchestrator/supervisor/one-seat-process-flags.ts'); await workerSnapshot(); await workerSnapshot(BOT_PROCESS_NODE_FLAGS); await workerSnapshot(ONE_SEAT_PROCESS_NODE_FLAGS);";

export default async function setup(): Promise<void> {
  await Promise.allSettled([
    run(process.execPath, ['bin/parley.js', '--version']),
    run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', worker]),
  ]);
}
