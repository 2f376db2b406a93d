import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CloseCode } from '../../protocol/codes.js';
import { liveEpisode } from '../helpers/live-episode.js';
import { WsAgent } from '../helpers/ws-agent.js';

/**
 * A connection the agent endpoint gave up to make room (close 4009) reads no more frames (ws-endpoint.ts
 * `closeBusy`, a7aad0e). Its agent may already have sent `seat.join` when the close left: read after the
 * close, that join spent the seat's token, and the agent's join again, on a new connection, was refused
 * (token_spent). Here the endpoint holds one pending connection; the first agent stops reading, so the 4009
 * reaches it only after it has sent its join; the second connection evicts it. The token must still be
 * unspent: a third connection joins with it and is welcomed. (Without the fix the join is read, the seat taken
 * and, the connection gone with no reconnect grace here, closed: the third join gets `seat/closed`.)
 */
describe('a connection closed to make room (4009)', () => {
  let close: (() => Promise<void>) | null = null;
  afterEach(async () => {
    await close?.();
    close = null;
  });

  it("reads nothing more: a join sent before the close arrived does not spend the seat's token", async () => {
    const live = await liveEpisode({ pendingLimits: { perAddress: 1, total: 1 } });
    close = () => live.close();
    const token = live.token('A');

    const first = await WsAgent.connect(live.url);
    const raw = (first.ws as unknown as { _socket: Socket })._socket;
    // The first agent does not read yet: the close frame that is coming waits in its socket.
    raw.pause();
    // The second pending connection is over the limit of one: the first is closed with 4009 before the
    // second's upgrade is answered, so once the second is open, the close has left.
    const second = await WsAgent.connect(live.url);
    first.join(token);
    raw.resume();
    expect((await first.closed).code).toBe(CloseCode.Busy);
    second.ws.terminate();

    // Its join reached the endpoint before its answer to the close did; had it been read, the token would be spent.
    const third = await WsAgent.connect(live.url);
    third.join(token);
    const answer = await third.next((f) => f.type === 'seat.welcome' || f.type === 'error');
    expect(answer.type, JSON.stringify(answer)).toBe('seat.welcome');
    third.ws.terminate();
  });
});
