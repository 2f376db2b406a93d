import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { hasChromium } from '../helpers/browser.js';
import { browserSuite, PAGE_POLL } from '../helpers/test-browser.js';
import { parley } from '../helpers/processes.js';
import { COLOUR_RULES, darkColourViolations, seriousViolations } from '../helpers/axe.js';
import { inViewport, myTurn, pageMetrics, sharedFriend, turnOrEnd } from '../helpers/seat-page.js';

/**
 * The seat page's chat layout (issue 25, contract 1): at 1280×800, after ten turns of an agents-mode
 * episode, the Message box and the latest message are both on screen without scrolling the page (the
 * conversation scrolls inside its own box, to its newest message); at 390×844 a whole episode is
 * played by accessible names only, the side panel opened with its toggle. axe-core (contract 2) finds
 * no serious or critical violation mid-episode, in light and dark mode, wide and narrow, nor on the end screen.
 * The three tests share one page (`suite.page`), sized per test.
 */
describe.skipIf(!hasChromium)('seat page layout', () => {
  const suite = browserSuite('layout');
  const { tmp, procs } = suite;
  /** One MutualFriends episode against a bot, agent1 left to a person: its run directory and agent1's link. */
  const serveOne = async (name: string): Promise<{ out: string; link: string }> => {
    const out = join(tmp.path, name);
    const serve = parley(['serve', '--port', '0', '--scenarios', 'builtin', '--subset', 'mutual_friends', '--modes', 'agents', '--agent2', 'bot', '--limit', '1', '--out', out]);
    procs.push(serve);
    const [, link] = await serve.line(/^seat agent1 token \S+ url (\S+)$/);
    return { out, link: link! };
  };

  it('the axe-core check finds serious violations when a page has them (so an empty list means something)', async () => {
    const page = await suite.page();
    await page.setContent('<!doctype html><html><body><button></button><p style="color:#bbb;background:#fff">faint</p></body></html>');
    const ids = (await seriousViolations(page)).map((v) => v.id);
    expect(ids).toEqual(expect.arrayContaining(['button-name', 'color-contrast']));
    // The colour rules alone (the check of the dark scheme) find the contrast and only that.
    expect((await seriousViolations(page, COLOUR_RULES)).map((v) => v.id)).toEqual(['color-contrast']);
  });

  it('at 1280×800, after ten turns, the Message box and the latest message are visible without scrolling', async () => {
    const { link } = await serveOne('wide');
    const page = await suite.page({ width: 1280, height: 800 });
    await page.goto(link);
    const messages = page.locator('#chat li.msg');
    const box = page.getByRole('textbox', { name: 'Message' });
    // Long messages, so ten turns overflow the conversation's box for sure.
    const long = (i: number) => `Message ${i}: ${'I went to a school by the sea and I work in the city, and I like long walks on the weekend. '.repeat(3)}`;
    for (let i = 0; i < 5; i++) {
      await myTurn(page);
      // The seat's turn puts the keyboard in the box: typing and Enter send, no click needed.
      // One read of the page is a round trip to a shared Chromium: under load it alone can take the default 1 s.
      await expect.poll(async () => (await pageMetrics(page)).activeId, { timeout: 30_000, ...PAGE_POLL }).toBe('message');
      // Inserted where the keyboard is, as one input (typed key by key, the ~1,400 characters cost Chromium
      // ~9 s of CPU): the text reaches the box only if the turn put the keyboard there.
      await page.keyboard.insertText(long(i));
      await page.keyboard.press('Enter');
      await expect.poll(() => messages.count(), { timeout: 30_000, ...PAGE_POLL }).toBeGreaterThanOrEqual(2 * i + 1);
    }
    await myTurn(page);
    await expect(messages.count()).resolves.toBe(10);
    // The conversation is longer than its box (so this checks scrolling to the newest, not a short chat).
    expect(await page.locator('#chat').evaluate((c) => c.scrollHeight > c.clientHeight)).toBe(true);
    // The page itself does not scroll, and neither the box nor the newest message is off screen.
    const m = await pageMetrics(page);
    expect([m.scrollY, m.scrollHeight <= m.innerHeight]).toEqual([0, true]);
    expect(await inViewport(page, box)).toBe(true);
    const latest = messages.last();
    expect(await inViewport(page, latest)).toBe(true);
    // …and inside the conversation's visible area, not hidden under its scroll.
    const [chat, last] = [await page.locator('#chat').boundingBox(), await latest.boundingBox()];
    expect(last!.y).toBeGreaterThanOrEqual(chat!.y - 0.5);
    expect(last!.y + last!.height).toBeLessThanOrEqual(chat!.y + chat!.height + 0.5);
    // Speech and narration are apart: the bot's moves include non-speech items, ours are speech bubbles.
    await expect(page.locator('#chat li.msg.own.speech').count()).resolves.toBe(5);
    await expect(page.getByRole('status').first().textContent()).resolves.toMatch(/Your turn/);
    await expect(page.locator('#countdown').textContent()).resolves.toMatch(/Time left for your move: \d/);
    // The side panel is beside the conversation: the goal is on screen too.
    expect(await inViewport(page, page.locator('.goal'))).toBe(true);
    // Contract 2: mid-episode, in both colour schemes (dark: what a scheme changes, COLOUR_RULES).
    expect(await seriousViolations(page)).toEqual([]);
    expect(await darkColourViolations(page)).toEqual([]);

    await page.getByRole('combobox', { name: 'Action' }).selectOption('leave');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByRole('region', { name: 'Episode over' }).textContent()).resolves.toMatch(/leave/);
  }, 180_000);

  it('at 390×844 a whole MutualFriends episode is played by accessible names', async () => {
    const { out, link } = await serveOne('phone');
    const page = await suite.page({ width: 390, height: 844 });
    await page.goto(link);
    const friend = sharedFriend(out);
    await myTurn(page);
    // Nothing is wider than the phone: the page never scrolls sideways.
    const m = await pageMetrics(page);
    expect(m.scrollWidth).toBeLessThanOrEqual(m.innerWidth);
    expect(await inViewport(page, page.getByRole('textbox', { name: 'Message' }))).toBe(true);
    await page.getByRole('combobox', { name: 'Action' }).selectOption('speak');
    await page.getByRole('textbox', { name: 'Message' }).fill(`Hi! Do you know ${friend}?`);
    await page.getByRole('button', { name: 'Send' }).click();
    // The friend table lives in the collapsed panel: open it by its toggle, then select by name.
    const toggle = page.getByRole('button', { name: 'Character and goal' });
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('false');
    await expect(page.getByRole('button', { name: `Select ${friend}` }).isVisible()).resolves.toBe(false);
    await toggle.click();
    // Nothing on the page closes the panel but the episode's end (renderEnd), and this episode ends only once
    // agent1 has selected too (every seat selects), so an end here is a failure (a deadline, a disconnect).
    // Wait for either, and if it ended, say why instead of "no button named Back to the conversation".
    const end = page.getByRole('region', { name: 'Episode over' });
    await page.locator('#panel-toggle[aria-expanded="true"]').or(end).first().waitFor({ timeout: 30_000 });
    expect((await end.isVisible()) ? await end.textContent() : 'playing', 'the episode ended before agent1 selected').toBe('playing');
    await expect(page.getByRole('button', { name: 'Back to the conversation' }).getAttribute('aria-expanded')).resolves.toBe('true');
    expect(await seriousViolations(page)).toEqual([]);
    await myTurn(page);
    await page.getByRole('button', { name: `Select ${friend}` }).click();
    while ((await turnOrEnd(page, end)) === 'turn') {
      const select = page.getByRole('button', { name: `Select ${friend}` });
      if (!(await select.isVisible())) await page.getByRole('button', { name: 'Character and goal' }).click();
      await select.click();
    }
    await expect(end.textContent()).resolves.toMatch(/Success/);
    expect(await inViewport(page, end)).toBe(true);
    // Down to 360 px the page never scrolls sideways (long tables scroll inside their own box).
    await page.setViewportSize({ width: 360, height: 740 });
    await page.getByRole('button', { name: 'Character and goal' }).click();
    const narrow = await pageMetrics(page);
    expect(narrow.scrollWidth).toBeLessThanOrEqual(narrow.innerWidth);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await seriousViolations(page)).toEqual([]);
  }, 180_000);
});
