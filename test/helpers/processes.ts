/** Moved to `testkit/processes.ts` (shared by tests and `bench/`); kept so test imports need not change. */
export * from '../../testkit/processes.js';
