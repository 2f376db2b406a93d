import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlmServer, type FakeLlmServer } from '../../testkit/fake-llm-server.js';
import { seriousViolations } from '../helpers/axe.js';
import { hasChromium } from '../helpers/browser.js';
import { browserSuite, PAGE_POLL } from '../helpers/test-browser.js';
import { parley, within } from '../helpers/processes.js';
import { cleanEnv } from '../llm-run-helpers.js';

/**
 * Issue 37, contract 5: a run with `--watch` ends with its page showing "Run finished" and the run's
 * summary, with no error; `parley watch DIR` serves the same page for that finished run (every episode,
 * its turns and ledgers read back from DIR); at 1280×800 the episode table is not clipped, and picking a
 * turn scrolls every seat's ledger column to that turn together. Chromium through playwright-core; the
 * tests share one page (`suite.page`).
 */
describe.skipIf(!hasChromium)('the watch page at the end of a run, and parley watch DIR', () => {
  const suite = browserSuite('watch-finished');
  const { tmp, procs } = suite;
  const out = join(tmp.path, 'R');
  let server: FakeLlmServer;
  /** The LLM seats' replies wait for this: the page is open before the run can end. */
  let pageOpen!: () => void;
  const opened = new Promise<void>((resolve) => (pageOpen = resolve));

  beforeAll(async () => {
    server = await startFakeLlmServer({ default: async () => (await opened, { kind: 'plausible' }) });
  }, 60_000);
  suite.onTeardown(async () => {
    await server?.close();
  });

  /** Whether the page shows its error element (present and not hidden). */
  const errorShown = (page: Page) => page.locator('#error').isVisible();

  it('run --watch: the page ends on "Run finished" with the summary, and no error', async () => {
    const run = parley(['run', '--scenarios', 'builtin', '--subset', 'mutual_friends', '--modes', 'agents', '--limit', '3', '--agent1', 'openai:gpt-4o-mini', '--agent2', 'bot', '--watch', '--watch-port', '0', '--out', out], { env: cleanEnv(server.env()) });
    procs.push(run);
    const [, url] = await within(run.line(/^watch url (http:\/\/127\.0\.0\.1:\d+\/watch\?key=[\w-]+)$/), 60_000, 'the watch url line', [run]);
    const page = await suite.page({ width: 1280, height: 800 });
    await page.goto(url!);
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor({ timeout: 30_000 });
    pageOpen();
    expect(await within(run.exited, 120_000, 'the run ends', [run])).toBe(0);
    await page.locator('#summary').filter({ hasText: /^Run finished: 3 done, 0 failed/ }).waitFor({ timeout: 30_000 });
    await expect.poll(() => page.locator('#conn').textContent(), { timeout: 10_000, ...PAGE_POLL }).toBe('Run finished');
    // The server is gone now: the page keeps its end state, and shows no error.
    expect(await errorShown(page)).toBe(false);
  }, 180_000);

  it('parley watch DIR serves the finished run: its episodes, summary, turns and ledgers', async () => {
    const watch = parley(['watch', out, '--watch-port', '0']);
    procs.push(watch);
    const [, url] = await within(watch.line(/^watch url (http:\/\/127\.0\.0\.1:\d+\/watch\?key=[\w-]+)$/), 60_000, 'the watch url line', [watch]);
    expect((await fetch(url!.replace(/key=.*/, 'key=wrong'))).status).toBe(403);
    const page = await suite.page({ width: 1280, height: 800 });
    await page.goto(url!);
    await page.locator('#summary').filter({ hasText: /^Run finished: 3 done, 0 failed/ }).waitFor({ timeout: 30_000 });
    const openButtons = page.getByRole('button', { name: /^Open mutual_friends_\d+ \(agents\)$/ });
    await expect.poll(() => openButtons.count(), { timeout: 30_000, ...PAGE_POLL }).toBe(3);
    // At 1280 px the episode table fits its panel: nothing clipped, no sideways scrolling.
    const clipped = await page.locator('.table-scroll').evaluate((e) => e.scrollWidth - e.clientWidth);
    expect(clipped).toBeLessThanOrEqual(0);

    // An episode's turns and both seats' ledgers, read back from the run directory.
    await openButtons.first().click();
    const turns = page.getByRole('list', { name: 'Turns so far' });
    await expect.poll(() => turns.locator('li').count(), { timeout: 30_000, ...PAGE_POLL }).toBeGreaterThanOrEqual(3);
    for (const s of ['agent1', 'agent2']) await page.getByRole('region', { name: `Ledger of ${s}` }).locator('li').first().waitFor({ timeout: 30_000 });
    // Picking a turn: each ledger column marks, and scrolls to, the first frame of that turn.
    await page.getByRole('button', { name: /^Turn 3 · .*: show what each seat was told then$/ }).click();
    for (const s of ['agent1', 'agent2']) {
      const selected = page.getByRole('region', { name: `Ledger of ${s}` }).locator('li.selected');
      await expect(selected.getAttribute('data-turn')).resolves.toBe('2');
      expect(await selected.isVisible()).toBe(true);
      const inView = await selected.evaluate((li) => {
        const list = li.closest('ol')!.getBoundingClientRect();
        const r = li.getBoundingClientRect();
        return r.top >= list.top - 1 && r.top < list.bottom;
      });
      expect(inView, `${s}'s column shows turn 3`).toBe(true);
    }
    expect(await errorShown(page)).toBe(false);
    // The finished page with a turn picked: no serious or critical axe-core violation.
    expect(await seriousViolations(page)).toEqual([]);
    watch.child.kill('SIGINT');
    expect(await within(watch.exited, 30_000, 'parley watch stops on Ctrl-C', [watch])).toBe(0);
  }, 120_000);

  it('refuses --watch-port without --watch, in one line with exit 2', async () => {
    const run = parley(['run', '--scenarios', 'builtin', '--watch-port', '8123', '--out', join(tmp.path, 'never')]);
    expect(await within(run.exited, 30_000, 'refused', [run])).toBe(2);
    expect(run.stderr).toEqual(['parley run: --watch-port needs --watch']);
    expect(existsSync(join(tmp.path, 'never'))).toBe(false);
  }, 60_000);
});
