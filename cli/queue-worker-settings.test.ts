import { describe, expect, it } from 'vitest';
import { queueIgnoredFlag } from './queue-worker-settings.js';

describe('queueIgnoredFlag', () => {
  it("passes a coordinator given none of the workers' flags", () => {
    expect(queueIgnoredFlag({ queue: 'redis://h:6379', modes: ['agents'], experiment: 'examples/paper.yaml' })).toBeNull();
    expect(queueIgnoredFlag({ multiplex: false })).toBeNull();
  });

  it('refuses the pool flags by name, since the workers choose them', () => {
    expect(queueIgnoredFlag({ concurrency: 8 })).toMatch(/^--concurrency: with --queue each worker decides/);
    expect(queueIgnoredFlag({ concurrency: 4 })).toMatch(/^--concurrency: /);
    expect(queueIgnoredFlag({ multiplex: true, 'seats-per-process': 3 })).toMatch(/^--multiplex, --seats-per-process: /);
  });

  it('refuses --allow-origin: no browser reaches a coordinator', () => {
    expect(queueIgnoredFlag({ 'allow-origin': ['https://a.example'] })).toMatch(/^--allow-origin: /);
  });
});
