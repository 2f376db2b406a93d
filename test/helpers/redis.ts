/** Moved to `testkit/redis.ts` (shared by tests and `bench/`); kept so test imports need not change. */
export * from '../../testkit/redis.js';
