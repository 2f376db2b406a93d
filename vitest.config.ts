import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/setup/sequencer.js';

/**
 * Three tiers (issue 21), all run by `npm test`:
 * - unit: tests next to their code, in-process only (test/setup/unit-guard.ts refuses child processes
 *   and listening sockets) — `npm run test:unit`, the inner loop;
 * - integration: test/ — the CLI, agent pools, real loopback sockets;
 * - system: test/system/ — Redis, Chromium, full-size and long fault runs, the bench smoke test.
 */
const exclude = ['node_modules/**', 'runs/**'];

export default defineConfig({
  test: {
    // Multi-process tests spawn real agent processes; give them room but never hang CI.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: two files at a time. Integration and system files mostly wait on child processes and
    // sockets, so two in flight keep both cores busy without starving either.
    maxWorkers: 2,
    // The full-size paper run first, then the other system files, integration, unit (test/setup/sequencer.ts).
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        extends: true,
        // In-process tests: worker threads, and one module graph per worker (isolate: false) instead of one
        // per file — 6× faster. The price: a unit test must undo what it changes (mocks, env, module state).
        test: { name: 'unit', include: ['**/*.test.ts'], exclude: [...exclude, 'test/**'], setupFiles: ['test/setup/unit-guard.ts'], pool: 'threads', isolate: false },
      },
      // Integration and system files share a worker process too (isolate: false): a fresh process and module
      // graph per file cost ~15 s of CPU in all; test/setup/shared-process-guard.ts fails a file that leaves
      // the environment or the working directory changed. Both build the CLI and agent bundles once up front
      // (not by the first commands of both workers at once); system files share one Chromium (globalSetup).
      {
        extends: true,
        test: { name: 'integration', include: ['test/**/*.test.ts'], exclude: [...exclude, 'test/system/**'], isolate: false, setupFiles: ['test/setup/shared-process-guard.ts'], globalSetup: ['test/setup/warm-bundles.ts'] },
      },
      {
        extends: true,
        test: { name: 'system', include: ['test/system/**/*.test.ts'], exclude, isolate: false, setupFiles: ['test/setup/shared-process-guard.ts'], globalSetup: ['test/setup/warm-bundles.ts', 'test/setup/chromium-server.ts'] },
      },
    ],
  },
});
