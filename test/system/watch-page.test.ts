import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { io, type Socket } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { SOCKET_IO_PATH } from '../../protocol/browser-transport.js';
import { WATCH_EVENT, WATCH_NAMESPACE } from '../../protocol/watch.js';
import { darkColourViolations, seriousViolations } from '../helpers/axe.js';
import { hasChromium } from '../helpers/browser.js';
import { browserSuite, PAGE_POLL } from '../helpers/test-browser.js';
import { parley, within } from '../helpers/processes.js';
import { myTurn } from '../helpers/seat-page.js';

/**
 * The live watch page (issue 25, contract 3): `parley run --scenarios builtin --modes agents --watch
 * --out R` prints a `watch url …` line; without its key (or with a seat token) it answers 403; with it,
 * the page lists the run's episodes and shows an in-flight episode's new turns, and each seat's ledger,
 * without a reload. The episode stays in flight because its first seat is a person's (`--agent1
 * human`), played here in a second page. A watcher is read-only: what it emits never reaches a seat and
 * cannot end the run. axe-core finds no serious or critical violation on the page (contract 2).
 */
describe.skipIf(!hasChromium)('parley run --watch', () => {
  const suite = browserSuite('watch');
  const { tmp, procs } = suite;
  const sockets: Socket[] = [];
  suite.onTeardown(() => {
    for (const s of sockets) s.disconnect();
  });

  /** A watcher client in this process (what a script posing as the page can do). */
  const watcher = (base: string, auth: Record<string, unknown>): Socket => {
    const s = io(`${base}${WATCH_NAMESPACE}`, { path: SOCKET_IO_PATH, transports: ['websocket'], auth, reconnection: false, forceNew: true });
    sockets.push(s);
    return s;
  };
  /** Resolves with how the watcher's connection attempt ended: 'connected' or the refusal's message. */
  const outcome = (s: Socket) => new Promise<string>((resolve) => {
    s.once('connect', () => resolve('connected'));
    s.once('connect_error', (err) => resolve(err.message));
  });

  it('the contract command as written prints a watch url line and runs to completion', async () => {
    const run = parley(['run', '--scenarios', 'builtin', '--modes', 'agents', '--watch', '--out', join(tmp.path, 'plain')]);
    procs.push(run);
    const [line] = await within(run.line(/^watch url http:\/\/127\.0\.0\.1:\d+\/watch\?key=[\w-]{32}$/), 60_000, 'the watch url line', [run]);
    // Printed before any episode ran, once: the page can be opened while the run plays.
    expect(run.stdout.indexOf(line!)).toBeLessThan(run.stdout.findIndex((l) => /^\[\s*1\/20\]/.test(l)) >>> 0);
    expect(await within(run.exited, 120_000, 'the run ends', [run])).toBe(0);
    expect(run.stdout.filter((l) => l.startsWith('watch url '))).toHaveLength(1);
  }, 180_000);

  it('prints the watch url; 403 without its key; the page lists episodes and shows new turns live; watchers only read', async () => {
    const out = join(tmp.path, 'R');
    const run = parley(['run', '--scenarios', 'builtin', '--modes', 'agents', '--watch', '--out', out, '--subset', 'mutual_friends', '--limit', '2', '--agent1', 'human', '--agent2', 'bot', '--human-deadline', '600000']);
    procs.push(run);
    const [, url, base, key] = await within(run.line(/^watch url ((http:\/\/127\.0\.0\.1:\d+)\/watch\?key=([\w-]+))$/), 60_000, 'the watch url line', [run]);
    const seatLine = /^seat agent1 token (\S+) url (\S+)$/;
    const seatLinks = () => run.stdout.map((l) => seatLine.exec(l)).filter((m): m is RegExpExecArray => m !== null);
    await expect.poll(() => seatLinks().length, { timeout: 60_000 }).toBe(2);
    const seats = seatLinks();
    const seatToken = seats[0]![1]!;

    // 403 without the key, with a wrong one, and with a seat's token in any parameter.
    for (const u of [`${base}/watch`, `${base}/watch?key=wrong`, `${base}/watch?token=${seatToken}`, `${base}/watch?key=${seatToken}`]) {
      expect((await fetch(u)).status, u).toBe(403);
    }
    expect((await fetch(url!)).status).toBe(200);
    // The feed's namespace refuses the same way.
    expect(await outcome(watcher(base!, {}))).toBe('forbidden');
    expect(await outcome(watcher(base!, { key: seatToken }))).toBe('forbidden');
    expect(await outcome(watcher(base!, { token: seatToken }))).toBe('forbidden');

    const watch = await suite.page({ width: 1400, height: 900 });
    await watch.goto(url!);
    const openButtons = watch.getByRole('button', { name: /^Open mutual_friends_\d+ \(agents\)$/ });
    await watch.getByRole('status').filter({ hasText: 'Live' }).waitFor({ timeout: 30_000 });
    await expect.poll(() => openButtons.count(), { timeout: 30_000, ...PAGE_POLL }).toBe(2);
    // Set once: still there at the end means the page never reloaded.
    await watch.evaluate('window.__sameDocument = true');

    const seat = await suite.browser.newPage();
    await seat.goto(seats[0]![2]!);
    await myTurn(seat);
    // Every seat of that episode joined: it is the one playing; open it on the watch page.
    const playing = watch.locator('#rows tr', { has: watch.locator('.state.playing') });
    await playing.waitFor({ timeout: 30_000 });
    await playing.getByRole('button').click();
    const turns = watch.getByRole('list', { name: 'Turns so far' });
    const say = async (text: string) => {
      await myTurn(seat);
      await seat.getByRole('textbox', { name: 'Message' }).fill(text);
      await seat.keyboard.press('Enter');
    };
    await say('watch-test first message');
    await turns.getByText('watch-test first message').waitFor({ timeout: 30_000 });
    // Side by side, what each seat was told: both ledgers carry the move, agent1's also its welcome.
    for (const s of ['agent1', 'agent2']) await watch.getByRole('region', { name: `Ledger of ${s}` }).getByText(/watch-test first message/).first().waitFor({ timeout: 30_000 });
    await expect(watch.getByRole('region', { name: 'Ledger of agent1' }).textContent()).resolves.toContain('seat.welcome');
    await say('watch-test second message');
    await turns.getByText('watch-test second message').waitFor({ timeout: 30_000 });
    // The bot's replies come in as well, and the row's turn count follows.
    await expect.poll(async () => Number(/^(\d+) \//.exec((await playing.locator('td.num').first().textContent()) ?? '')?.[1]), { timeout: 30_000, ...PAGE_POLL }).toBeGreaterThanOrEqual(3);
    expect(await watch.evaluate('window.__sameDocument')).toBe(true);

    // Contract 2 on the watch page, light and dark (COLOUR_RULES).
    expect(await seriousViolations(watch)).toEqual([]);
    expect(await darkColourViolations(watch)).toEqual([]);

    // A watcher with the key tries to act: seat frames, joins, odd payloads, a flood. It is ignored,
    // then dropped; the run and the seat go on as if it had never been there.
    const rogue = watcher(base!, { key });
    const fed = new Promise((resolve) => rogue.once(WATCH_EVENT, resolve));
    expect(await outcome(rogue)).toBe('connected');
    // It is fed like the page (the run and its rows come first)…
    await within(fed, 30_000, 'the rogue watcher gets the feed', [run]);
    const dropped = new Promise<string>((resolve) => rogue.once('disconnect', (reason) => resolve(String(reason))));
    for (let t = 0; t < 20; t++) rogue.emit('frame', JSON.stringify({ v: 1, type: 'turn.act', id: `x${t}`, turn: t, action: { type: 'speak', argument: 'WATCHER-INJECTED' }, meta: { policy: 'human' } }));
    rogue.emit('frame', JSON.stringify({ v: 1, type: 'seat.join', id: 'j', token: seats[1]![1], client: { name: 'x', version: '1', policy: 'human' } }));
    rogue.emit('watch.open', { $gt: '' });
    rogue.emit('watch.open', 'x'.repeat(5000));
    rogue.emit('watch.open', 'WATCHER-INJECTED', 'extra');
    rogue.emit('seat.close', { code: 4000, reason: 'WATCHER-INJECTED' });
    await within(dropped, 30_000, 'the rogue watcher is disconnected', [run]);
    expect(run.child.exitCode).toBeNull();
    await say('watch-test third message');
    await turns.getByText('watch-test third message').waitFor({ timeout: 30_000 });

    // End both episodes (the second seat's person leaves at once); the run completes normally.
    const leave = async (page: Page) => {
      await myTurn(page);
      await page.getByRole('combobox', { name: 'Action' }).selectOption('leave');
      await page.getByRole('button', { name: 'Send' }).click();
      await page.getByRole('region', { name: 'Episode over' }).waitFor({ timeout: 30_000 });
    };
    await leave(seat);
    // The second seat's person in the same tab (its own token, so no resume secret of the first applies).
    await seat.goto(seats[1]![2]!);
    await leave(seat);
    expect(await within(run.exited, 60_000, 'the run ends', [run])).toBe(0);

    // Nothing the watcher sent is anywhere in what the seats received or the records.
    const files = [join(out, 'episodes.jsonl'), ...readdirSync(join(out, 'ledgers'), { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => join(d.parentPath, d.name))];
    expect(files.length).toBeGreaterThan(2);
    for (const f of files) expect(readFileSync(f, 'utf8'), f).not.toContain('WATCHER-INJECTED');
    const records = readFileSync(join(out, 'episodes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const played = records.find((r) => r.turns.some((t: { action?: { argument?: string } }) => t.action?.argument === 'watch-test first message'));
    expect(played.turns.filter((t: { seat: string }) => t.seat === 'agent1').map((t: { action: { argument: string } }) => t.action.argument).slice(0, 3))
      .toEqual(['watch-test first message', 'watch-test second message', 'watch-test third message']);
    await seat.close();
  }, 240_000);
});
