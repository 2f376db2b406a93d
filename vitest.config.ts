import { defineConfig } from 'vitest/config';
import { scratchTmpDir } from './test/setup/scratch-tmp.js';
import { LongestFirst } from './test/setup/sequencer.js';
import { E2E_GUARD_MS } from './test/setup/guards.js';

/**
 * Three tiers (issue 21), all run by `npm test`:
 * - unit: tests next to their code, in-process only (test/setup/unit-guard.ts refuses child processes
 *   and listening sockets) — `npm run test:unit`, the inner loop;
 * - integration: test/ — the CLI, agent pools, real loopback sockets;
 * - system: test/system/ — Redis, Chromium, full-size and long fault runs, the bench smoke test.
 */
const exclude = ['node_modules/**', 'runs/**'];
const scratch = scratchTmpDir();

export default defineConfig({
  test: {
    // Multi-process tests spawn real agent processes; give them room but never hang CI. (Integration
    // files get more below: E2E_GUARD_MS.)
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Every Node process reads the certificates NODE_EXTRA_CA_CERTS names, and parses its whole root store
    // with them, as it starts: ~50 ms of CPU a process where the machine points it at the system bundle
    // (this project's machines do: `node -e 0` takes 70 ms of CPU, 20 ms without). The tests start ~850
    // Node processes (agent processes, CLI commands) and none of them speaks TLS (every server is on
    // 127.0.0.1, plain HTTP or ws), so the variable is emptied for the test processes (empty = unset).
    // TMPDIR: the tests' temporary files on the machine's tmpfs when it has one (test/setup/scratch-tmp.ts:
    // creating files on this machines' disk cost up to ~0.5 ms of system CPU each).
    // PARLEY_WORKER_NICE=0: the suite's agent processes at the orchestrator's priority. At the default nice 19
    // (orchestrator/supervisor/worker-niceness.ts) an agent process gets ~1.5 % of the CPU weight of any process at
    // nice 0, and the suite runs three files at once: one file's agent processes waited behind the other
    // files' CLI commands and orchestrators, and behind anything else on the machine. At load ~30 (two
    // cores) a two-episode LLM run's processes were not ready after 190 s; at nice 0 the run took 8 s.
    env: { NODE_EXTRA_CA_CERTS: '', PARLEY_WORKER_NICE: '0', ...(scratch && { TMPDIR: scratch }) },
    pool: 'forks',
    // Three files at a time on two cores. The files' work is in their child processes (CLI commands, agent
    // processes, Chromium), and each file also waits: on a Redis outage it stages, a rate window, a
    // browser. With two files in flight the cores sat idle ~5% of the run (sampled from /proc/stat), and the
    // full-size paper run held one of the two for a third of it; with three they are busy ~99% of the time
    // and the suite takes ~225 s instead of ~250 s.
    maxWorkers: 3,
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
      // Integration files that need the same bot run only as input share one build of it (run-fixtures.ts).
      // Their guards (E2E_GUARD_MS): a small LLM run needs ~3.5 s of CPU, a CLI command's start ~0.3 s, and on two
      // cores at load 50–70 (other files, other work) the run took 32 s of wall time and a command that only
      // refuses its arguments 12–30 s: a 60 s timeout failed runs that were only slow.
      {
        extends: true,
        test: { name: 'integration', include: ['test/**/*.test.ts'], exclude: [...exclude, 'test/system/**'], isolate: false, setupFiles: ['test/setup/shared-process-guard.ts'], globalSetup: ['test/setup/warm-bundles.ts', 'test/setup/run-fixtures.ts'], testTimeout: E2E_GUARD_MS, hookTimeout: E2E_GUARD_MS },
      },
      {
        extends: true,
        test: { name: 'system', include: ['test/system/**/*.test.ts'], exclude, isolate: false, setupFiles: ['test/setup/shared-process-guard.ts'], globalSetup: ['test/setup/warm-bundles.ts', 'test/setup/chromium-server.ts'] },
      },
    ],
  },
});
