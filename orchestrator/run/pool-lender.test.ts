import { describe, expect, it } from 'vitest';
import type { HostPoolOptions } from './episode-host.js';
import { PoolLender } from './pool-lender.js';

describe('PoolLender', () => {
  it('lends nothing once closed: a pool started after close would be stopped by nobody', async () => {
    const lender = new PoolLender();
    await lender.close();
    // Refused before the options are looked at, so no agent process is started by this test.
    await expect(lender.borrow({} as HostPoolOptions)).rejects.toThrow(/stopped/);
  });
});
