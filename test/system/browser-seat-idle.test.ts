import type { Page } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';
import { hasChromium } from '../helpers/browser.js';
import { browserSuite, PAGE_POLL } from '../helpers/test-browser.js';
import { parley } from '../helpers/processes.js';
import { myTurn } from '../helpers/seat-page.js';
import { idleWork } from '../helpers/idle-work.js';

/**
 * A seat page that waits does no work but what its display needs: `parley serve` with both seats left to
 * people, agent1's page on its turn (the countdown, shown in seconds) and agent2's page waiting for it
 * ("… is thinking"). While nobody acts, the countdown changes once a second, as one text node's data, and
 * the waiting page changes only its dots, a few times a second; Chromium recalculates style and lays out
 * no more often than that (an infinite CSS animation did both at every frame: ~60 times a second), and
 * with prefers-reduced-motion the dots stand still.
 */
describe.skipIf(!hasChromium)('an idle seat page', () => {
  const suite = browserSuite('seat-idle');
  const { procs } = suite;

  /** agent1's page on its turn and agent2's page waiting for agent1, in one context of the suite's browser. */
  const twoSeats = async (): Promise<{ mine: Page; waiting: Page }> => {
    const serve = parley(['serve', '--port', '0', '--scenarios', 'builtin', '--subset', 'mutual_friends', '--modes', 'agents', '--limit', '1']);
    procs.push(serve);
    const links = () => serve.stdout.filter((l) => /^seat agent[12] /.test(l)).map((l) => l.split(' url ')[1]!);
    await vi.waitFor(() => expect(links()).toHaveLength(2), { timeout: 60_000 });
    const context = await suite.browser.newContext();
    const [mine, waiting] = [await context.newPage(), await context.newPage()];
    await Promise.all([mine.goto(links()[0]!), waiting.goto(links()[1]!)]);
    await myTurn(mine);
    await waiting.locator('#thinking').waitFor({ timeout: 30_000 });
    return { mine, waiting };
  };

  it('on its turn the page changes the countdown once a second; waiting, only the dots; nothing at frame rate', async () => {
    const { mine, waiting } = await twoSeats();
    await expect(mine.locator('#countdown').textContent()).resolves.toMatch(/^Time left for your move: (\d+ min )?\d+ s$/);
    await expect(waiting.locator('#thinking').textContent()).resolves.toMatch(/is thinking/);
    // Two changes of the countdown (about two seconds) are the window for both pages.
    const [turn, wait] = await Promise.all([idleWork(mine, { countdownChanges: 2 }), idleWork(waiting, { whileOther: mine, countdownChanges: 2 })]);
    // The countdown: its text node's data, once a second (two changes, and at most one more at the window's edge).
    expect(turn.mutations.filter((m) => m !== 'characterData #countdown')).toEqual([]);
    expect(turn.mutations.length).toBeLessThanOrEqual(3);
    expect(turn.recalcStyles).toBeLessThanOrEqual(6);
    // Waiting: the dots step, at a few steps a second, as the dots' own text; nothing at frame rate.
    expect(wait.mutations.length).toBeGreaterThan(0);
    expect(new Set(wait.mutations)).toEqual(new Set(['characterData #thinking']));
    expect(wait.mutations.length).toBeLessThanOrEqual(12);
    expect(wait.recalcStyles).toBeLessThanOrEqual(16);
    // prefers-reduced-motion: the dots are shown and stand still.
    await waiting.emulateMedia({ reducedMotion: 'reduce' });
    // The page hears of the preference at its next rendering update, not when emulateMedia returns: until the
    // dots show '…' the change (one mutation of them) may still land inside the window below.
    await expect.poll(() => waiting.locator('#thinking .dots').textContent(), { timeout: 10_000, ...PAGE_POLL }).toBe('…');
    const still = await idleWork(waiting, { whileOther: mine, countdownChanges: 1 });
    expect(still.mutations).toEqual([]);
    expect(await waiting.locator('#thinking').isVisible()).toBe(true);
    await expect(waiting.locator('#thinking .dots').textContent()).resolves.toBe('…');
    await mine.context().close();
  }, 120_000);
});
