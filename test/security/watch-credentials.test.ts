import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WATCH_EVENT, WATCH_OPEN_EVENT, type WatchMessage } from '../../protocol/watch.js';
import { within } from '../helpers/processes.js';
import { WsAgent } from '../helpers/ws-agent.js';
import { watchedServeSuite } from './serve-target.js';

/**
 * Issue 35, contract 5: the watch feed once carried every seat's current resume secret in the welcome
 * lines, and with a seat's printed link a third party took a seat over mid-episode. No line a watcher
 * receives (nor a ledger on disk) holds a resume secret or a seat token — including after a rejoin,
 * which issues a fresh secret. Real `parley serve --watch`, a hand-driven agent on agent1 (so the test
 * knows its secrets) and a bot on agent2.
 */
describe('red team: credentials in the watch feed', () => {
  const watched = watchedServeSuite();

  it('no watch line and no ledger line holds a resume secret or a seat token', async () => {
    const { t, watcher: watch, agent } = await watched.start('watch-credentials', ['--watch', '--max-turns', '6']);
    const episodeId = /^episode (\S+) /.exec(t.serve.stdout.find((l) => l.startsWith('episode '))!)![1]!;
    const seen: string[] = [];
    const watcher = watch();
    let done!: () => void;
    const finished = new Promise<void>((resolve) => (done = resolve));
    watcher.on(WATCH_EVENT, (m: WatchMessage) => {
      seen.push(JSON.stringify(m));
      if (m.type === 'rows' && m.rows.some((r) => r.episodeId === episodeId && (r.state === 'done' || r.state === 'failed'))) done();
    });
    await within(new Promise((resolve) => watcher.once('connect', () => resolve(null))), 15_000, 'the watcher connects', [t.serve]);
    watcher.emit(WATCH_OPEN_EVENT, episodeId);

    const play = (a: WsAgent) => a.onFrame((f) => {
      if (f.type === 'turn.request') a.send({ type: 'turn.act', turn: f.turn, action: { type: 'speak', argument: `move ${String(f.turn)}` }, meta: { policy: 'test', latencyMs: 1 } });
    });
    const first = await agent();
    first.join(t.tokens.get('agent1')!);
    t.bot('agent2');
    // agent1 drops at its first request and comes back with its resume secret: a fresh one is issued.
    await within(first.next((f) => f.type === 'turn.request'), 30_000, 'the first request', [t.serve]);
    const secrets = [first.resumeSecret!];
    first.close();
    const back = await agent();
    play(back);
    back.join(t.tokens.get('agent1')!, 99_998, secrets[0]);
    await within(back.next((f) => f.type === 'seat.welcome'), 15_000, 'the rejoin welcome', [t.serve]);
    secrets.push(back.resumeSecret!);
    expect(secrets[1]).not.toBe(secrets[0]);
    await within(finished, 60_000, 'the episode ends', [t.serve]);

    const credentials = [...secrets, ...t.tokens.values()];
    for (const c of credentials) expect(c.length).toBeGreaterThan(15);
    const welcomes = seen.filter((l) => l.includes('seat.welcome'));
    expect(welcomes.length).toBeGreaterThan(0);
    for (const line of seen) for (const c of credentials) expect(line.includes(c), `a watch line holds ${c}`).toBe(false);
    // agent2's secret is not known to the test: every resume field a watcher sees is a withheld marker.
    const resumes = seen.flatMap((l) => [...l.matchAll(/\\"resume\\":\\"([^"\\]*)\\"/g)].map((m) => m[1]));
    expect(resumes.length).toBeGreaterThanOrEqual(3);
    for (const r of resumes) expect(r).toMatch(/^withheld\d+$/);
    // The same on disk: the ledgers a run directory shares.
    const dir = join(t.out, 'ledgers', episodeId);
    for (const f of readdirSync(dir)) {
      const text = readFileSync(join(dir, f), 'utf8');
      for (const c of credentials) expect(text.includes(c), `${f} holds a credential`).toBe(false);
      for (const m of text.matchAll(/"resume":"([^"]*)"/g)) expect(m[1]).toMatch(/^withheld\d+$/);
    }
  });
});
