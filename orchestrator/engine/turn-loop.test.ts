import { describe, expect, it } from 'vitest';
import type { OrchestratorFrameBody } from '../../protocol/index.js';
import { openFixture } from '../../test/fixtures/scenarios.js';
import { FakeClock } from '../fake-clock.js';
import { Inbox } from '../inbox.js';
import { makeLimits, type World } from '../world.js';
import type { SeatPort } from './engine-types.js';
import { runTurnLoop } from './turn-loop.js';

/**
 * A port that holds frames between `hold` and `flush` as a corked socket does, and logs each write (one
 * line per seat per write, with the frames it carried): the order in which the seats' processes are told.
 */
function writingPort(seat: string, writes: string[], onRequest: (turn: number) => void): SeatPort {
  let held: string[] | null = null;
  const write = (types: string[]) => writes.push(`${seat}: ${types.join(' + ')}`);
  return {
    send(body: OrchestratorFrameBody) {
      if (held) held.push(body.type);
      else write([body.type]);
      if (body.type === 'turn.request') onRequest(body.turn);
      return null;
    },
    reject() {},
    hold() {
      held ??= [];
    },
    flush() {
      const frames = held;
      held = null;
      if (frames?.length) write(frames);
    },
  };
}

describe('turn loop writes', () => {
  it("writes the asked seat's event and request before the speaker's own echo, one write per seat per move", async () => {
    const clock = new FakeClock();
    const inbox = new Inbox(clock);
    const world: World = { episodeId: 'ep', scenario: openFixture(3), mode: 'agents', limits: makeLimits(3, 5_000) };
    const writes: string[] = [];
    // Each seat answers its request at once, as a seat's frame reaches the episode's inbox.
    const answer = (seat: string) => (turn: number) =>
      queueMicrotask(() => inbox.push({ kind: 'frame', seat, frame: { v: 1, type: 'turn.act', id: `${seat}${turn}`, turn, action: { type: 'speak', argument: `hi ${turn}` }, meta: { policy: 'test', latencyMs: 1 } } }));
    const ports = new Map(['A', 'B'].map((s) => [s, writingPort(s, writes, answer(s))]));
    const result = await runTurnLoop({ world, ports, inbox, clock, lifecycles: new Map() });
    expect(result.turns.map((t) => t.seat)).toEqual(['A', 'B', 'A']);
    expect(writes).toEqual([
      'A: turn.request',
      // A moved: B (asked next) is written first, then A's echo of its own move.
      'B: turn.event + turn.request',
      'A: turn.event',
      'A: turn.event + turn.request',
      'B: turn.event',
      // The last move: no request, both echoes at the episode's end.
      'A: turn.event',
      'B: turn.event',
    ]);
  });
});
