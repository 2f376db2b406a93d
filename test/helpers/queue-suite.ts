import { startRedis, type TestRedis } from '../../testkit/redis.js';
import { processSuite, suiteResource, type ProcessSuite } from './process-suite.js';

/** What a queue test file shares between its tests (see `queueSuite`). */
export interface QueueSuite extends ProcessSuite {
  /** A real redis-server of the file's own, up from beforeAll to afterAll. */
  readonly redis: TestRedis;
}

/**
 * Registers, in the calling `describe`, a process suite (`processSuite`) and a redis-server; after the
 * tests every coordinator and worker is killed and awaited before Redis stops.
 */
export function queueSuite(prefix: string): QueueSuite {
  const suite = processSuite(prefix, { awaitExit: true });
  const redis = suiteResource(suite, 'redis', startRedis, (r) => r.stop());
  return {
    ...suite,
    get redis() {
      return redis();
    },
  };
}
