import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium } from '../helpers/browser.js';
import { testChromium, PAGE_POLL } from '../helpers/test-browser.js';
import { parley, tempDir, within, type CliProcess } from '../helpers/processes.js';
import { seriousViolations } from '../helpers/axe.js';
import { writeMinimalStudy } from '../helpers/study-participant.js';

/**
 * Issue 41: one participant's whole path in Chromium, by accessible names: consent ("I agree"), the
 * waiting room, the seat page with the bot that took the empty seat (`Message`, `Send`), the exit survey
 * (radio buttons named by their choice, "Submit") and the completion page; axe-core on each page, and on
 * the organiser's page, which counts the participant as done.
 */
describe.skipIf(!hasChromium)('parley study in a browser', () => {
  const tmp = tempDir('browser-study');
  let server: CliProcess;
  let browser: Browser;
  let base = '';
  let organiser = '';
  beforeAll(async () => {
    browser = await testChromium();
    const file = writeMinimalStudy(tmp.path, { waitSeconds: '1' });
    server = parley(['study', file, '--out', join(tmp.path, 'out'), '--port', '0']);
    base = (await within(server.line(/^study url (http:\/\/127\.0\.0\.1:\d+)\//), 60_000, 'study url', [server]))[1]!;
    organiser = (await server.line(/^organiser url (\S+#key=[0-9a-f]{32})$/))[1]!;
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    server?.child.kill('SIGINT');
    await within(server.exited, 30_000, 'study stops', [server]).catch(() => server.kill());
    tmp.remove();
  });

  it('takes one participant from the link to the completion code', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/?PROLIFIC_PID=5f0c0ffee0000000000000aa&STUDY_ID=s1&SESSION_ID=x1`);
    await page.getByRole('region', { name: 'Consent' }).getByText('You will chat with another participant').waitFor({ timeout: 30_000 });
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'I agree' }).click();

    // Alone for waitSeconds: the bot takes the other seat, and the page goes to the seat.
    await page.waitForURL(/\/seat#token=/, { timeout: 30_000 });
    const message = page.getByRole('textbox', { name: 'Message' });
    await message.waitFor({ timeout: 30_000 });
    // The box is shown at once and enabled when the participant is asked to move (the bot may move first).
    await expect.poll(() => message.isEnabled(), { timeout: 30_000, ...PAGE_POLL }).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await message.fill('Hello! Do we know anyone in common?');
    await page.getByRole('button', { name: 'Send' }).click();
    // Then leave: the episode ends and the end screen leads on to the survey.
    const action = page.getByRole('combobox', { name: 'Action' });
    await expect.poll(() => action.isEnabled(), { timeout: 30_000, ...PAGE_POLL }).toBe(true);
    await action.selectOption('leave');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('link', { name: 'Continue to the survey' }).click({ timeout: 60_000 });

    const survey = page.getByRole('form', { name: 'Exit survey' });
    await survey.waitFor({ timeout: 30_000 });
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('radio', { name: 'AI' }).check();
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Your completion code is C1A2B3').waitFor({ timeout: 30_000 });
    expect(await seriousViolations(page)).toEqual([]);

    // The organiser's page in the same tab (the participant's path is done).
    const org = page;
    await org.goto(organiser);
    const done = org.getByRole('row', { name: /Participants done/ });
    await expect(done.innerText({ timeout: 30_000 })).resolves.toMatch(/1$/);
    await expect(org.getByRole('row', { name: /Episodes with an AI fallback/ }).innerText()).resolves.toMatch(/1$/);
    expect(await seriousViolations(org)).toEqual([]);
    // Left open, the page refreshes (its "Updated" line) and rebuilds the table only when the counts changed.
    const changes = (await org.evaluate(`new Promise((resolve, reject) => {
      const seen = { table: 0, updated: 0 };
      const count = (key) => new MutationObserver((r) => { seen[key] += r.length; if (key === 'updated') { clearTimeout(stop); resolve(seen); } });
      count('table').observe(document.getElementById('stats'), { subtree: true, childList: true, characterData: true, attributes: true });
      count('updated').observe(document.getElementById('updated'), { subtree: true, childList: true, characterData: true });
      const stop = setTimeout(() => reject(new Error('no refresh in 30 s')), 30000);
    })`)) as { table: number; updated: number };
    expect(changes).toEqual({ table: 0, updated: 1 });
  }, 150_000);
});
