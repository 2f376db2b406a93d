/**
 * How long an integration test (and its hooks) may take before it fails as hung: the suite's multi-process
 * tests are CPU-bound, and a 2-core machine at load 70 gives one process ~1/35 of a core (vitest.config.ts).
 * Helpers that run a CLI command kill it a little earlier (CLI_GUARD_MS), so a slow run fails with its output.
 */
export const E2E_GUARD_MS = 180_000;

/** How long a CLI command run to completion by a test helper may take before it is killed. */
export const CLI_GUARD_MS = E2E_GUARD_MS - 20_000;
