import { expect, vi } from 'vitest';
import { openFixture } from '../../test/fixtures/scenarios.js';
import { fakeAgent } from './fake-agent.js';
import { harness, type HarnessOptions } from './harness.js';

/**
 * An agents episode of the open fixture in which seat A answers every request and seat B never does,
 * started (`done` is its record) and waited on until B has been asked for its turn: where the deadline,
 * drop and reconnect tests begin.
 */
export async function seatBAskedAndSilent(o: HarnessOptions = {}) {
  const h = harness(openFixture(3), 'agents', o);
  fakeAgent(h.transport, h.token('A'));
  const b = fakeAgent(h.transport, h.token('B'), { act: () => null });
  const done = h.episode.run();
  await vi.waitFor(() => expect(b.frames.some((f) => f.type === 'turn.request')).toBe(true));
  return { h, b, done };
}
