import { once } from 'node:events';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { loopbackListener, rehearseLoopbackSockets } from './snapshot-socket-rehearsal.js';
import { holdsMasks } from './ws/frame-writer.js';

/** Live handles of this process other than its standard streams (Node's own diagnostic, tests only). */
const sockets = (): number => (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles().filter((h) => h && (h as { constructor: { name: string } }).constructor.name !== 'WriteStream' && (h as { constructor: { name: string } }).constructor.name !== 'ReadStream').length;

describe('the loopback socket rehearsal of the agent snapshot', () => {
  it('plays a WebSocket seat connection and two HTTP exchanges, then leaves no socket, listener or mask behind', async () => {
    const before = sockets();
    const played = await rehearseLoopbackSockets();
    expect(played).toEqual({ closeCode: 1000, statuses: [200, 200] });
    // Closed sockets leave the handle list once their close callbacks ran.
    await new Promise((r) => setImmediate(r));
    expect(sockets()).toBe(before);
    expect(holdsMasks()).toBe(false);
  });

  it('loads no module a seat does not (net.Server would load cluster, child_process, dgram and dns into the blob)', async () => {
    const loaded = new Set((process as unknown as { moduleLoadList: string[] }).moduleLoadList);
    await rehearseLoopbackSockets();
    const added = (process as unknown as { moduleLoadList: string[] }).moduleLoadList.filter((m) => !loaded.has(m));
    expect(added.filter((m) => /\b(cluster|dns|dgram|child_process)\b/.test(m))).toEqual([]);
  });

  it('closes with a stranger\'s connection still open on its port: nothing outside the builder holds the build', async () => {
    const listener = loopbackListener();
    const stranger = connect(listener.port, '127.0.0.1');
    stranger.on('error', () => {});
    await once(stranger, 'connect');
    // Answered (a WebSocket's 101), then left open by the stranger.
    stranger.write('GET /agent HTTP/1.1\r\nhost: x\r\nsec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n');
    await once(stranger, 'data');
    let guard: NodeJS.Timeout | undefined;
    const held = new Promise<string>((resolve) => (guard = setTimeout(() => resolve('held'), 10_000)));
    const closed = await Promise.race([listener.close().then(() => 'closed'), held]);
    clearTimeout(guard);
    expect(closed).toBe('closed');
    if (!stranger.closed) await once(stranger, 'close');
  });
});
