import { describe, expect, it } from 'vitest';
import { WATCH_EVENT, WATCH_OPEN_EVENT, type WatchMessage, type WatchRow } from '../../protocol/watch.js';
import { within } from '../helpers/processes.js';
import { watchedServeSuite } from './serve-target.js';

const MB = 1024 * 1024;

/**
 * Issue 35, contract 1: a watcher holding the key stops reading its socket and opens a large episode
 * again and again. Each open once queued the whole episode in serve (the slow-watcher guard counted
 * packets, not bytes): about 200 MB for 30 opens. Now an opened episode is sent in chunks as the socket
 * drains, once per open: 30 opens of a 2 MB episode (alternating with another, so each is a real
 * reopen) add less than 30 MB to serve's resident memory. Real `parley serve --watch`, real sockets.
 */
describe('red team: a paused watcher reopening a large episode', () => {
  const watched = watchedServeSuite();

  it('30 opens of a 2 MB episode add less than 30 MB to serve', async () => {
    const { t, base, key, watcher: watch, agent } = await watched.start('watch-memory', ['--watch', '--max-turns', '100'], 2);
    const [big, other] = t.serve.stdout.filter((l) => l.startsWith('episode ')).map((l) => /^episode (\S+) /.exec(l)![1]!);
    // The large episode: both seats of the first episode answer every request with the longest move (8,000 characters).
    const says = 'x'.repeat(8000);
    for (const seat of ['agent1', 'agent2']) {
      const a = await agent();
      a.onFrame((f) => {
        if (f.type === 'turn.request') a.send({ type: 'turn.act', turn: f.turn, action: { type: 'speak', argument: says }, meta: { policy: 'test', latencyMs: 1 } });
      });
      a.join(t.episodes[0]!.get(seat)!);
    }
    // A well-behaved watcher sees the episode end and counts what an open of it carries.
    const observer = watch();
    const rows = new Map<string, WatchRow>();
    let detailBytes = 0;
    let ended!: () => void;
    const over = new Promise<void>((resolve) => (ended = resolve));
    observer.on(WATCH_EVENT, (m: WatchMessage) => {
      if (m.type === 'rows') for (const r of m.rows) rows.set(r.episodeId, r);
      if (rows.get(big!)?.state === 'done') ended();
    });
    await within(over, 90_000, 'the large episode ends', [t.serve]);
    expect(rows.get(big!)!.turns).toBe(100);
    const received = new Promise<void>((resolve) => observer.on(WATCH_EVENT, (m: WatchMessage) => {
      if ((m.type === 'ledger' || m.type === 'turn' || m.type === 'episode') && m.episodeId === big) detailBytes += JSON.stringify(m).length;
      if (detailBytes >= 2 * MB) resolve();
    }));
    observer.emit(WATCH_OPEN_EVENT, big);
    await within(received, 30_000, 'the episode detail (2 MB) reaches a reading watcher', [t.serve]);

    // The attacker: connected, then its TCP socket stops reading.
    const attacker = watch();
    await within(new Promise((resolve) => attacker.once('connect', () => resolve(null))), 15_000, 'the attacker connects', [t.serve]);
    (attacker.io.engine.transport as unknown as { ws: { _socket: { pause(): void } } }).ws._socket.pause();
    // A request on another connection is answered after serve has read what was sent before it.
    const roundTrip = async () => expect((await fetch(`${base}/watch?key=${key}`)).status).toBe(200);
    await roundTrip();
    const before = t.rss()!;
    for (let i = 0; i < 30; i++) {
      attacker.emit(WATCH_OPEN_EVENT, big);
      attacker.emit(WATCH_OPEN_EVENT, other);
    }
    await roundTrip();
    const added = t.rss()! - before;
    console.log(`watch-memory: 30 opens of a ${(detailBytes / MB).toFixed(1)} MB episode by a paused watcher added ${(added / MB).toFixed(1)} MB to serve's RSS`);
    expect(added).toBeLessThan(30 * MB);
    expect(t.serve.child.exitCode).toBeNull();
  });
});
