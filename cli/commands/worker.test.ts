import { afterEach, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../command.js';
import { run } from './worker.js';

afterEach(() => vi.unstubAllEnvs());

describe('parley worker', () => {
  it('refuses a bad PARLEY_WORKER_STOP_MS or PARLEY_QUEUE_LOCK_MS as a usage error, before dialling Redis', async () => {
    // Port 1 on loopback: were it dialled, the refusal would be a connection failure instead.
    for (const [name, raw] of [['PARLEY_WORKER_STOP_MS', 'soon'], ['PARLEY_QUEUE_LOCK_MS', '10']] as const) {
      vi.stubEnv(name, raw);
      const refused = run(['--queue', 'redis://127.0.0.1:1']);
      await expect(refused).rejects.toThrow(UsageError);
      await expect(refused).rejects.toThrow(`${name}: expected a whole number of milliseconds from `);
      vi.unstubAllEnvs();
    }
  });
});
