import { describe, expect, it } from 'vitest';
import { rehearseLoopbackSockets } from './snapshot-socket-rehearsal.js';
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
});
