import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM, hasChromium, launchChromium } from '../helpers/browser.js';
import { parley, REPO, tempDir, within, type CliProcess } from '../helpers/processes.js';
import { myTurn } from '../helpers/seat-page.js';

/**
 * `npm run screenshots`: regenerates docs/screenshots/*.png (shown in the README) from real runs with the
 * built-in bots, driven in Debian's Chromium: the seat page mid-episode (wide, and a phone in dark
 * mode), the watch page following an episode, and the annotation page. Nothing is staged by hand: each
 * picture is the product as a person sees it.
 */
const OUT = join(REPO, 'docs', 'screenshots');
const procs: CliProcess[] = [];
const tmp = tempDir('screenshots');

const line = async (p: CliProcess, re: RegExp, what: string) => (await within(p.line(re), 60_000, what, [p]));
const start = (args: string[]) => {
  const p = parley(args);
  procs.push(p);
  return p;
};
const shot = async (page: Page, name: string) => {
  await page.screenshot({ path: join(OUT, name) });
  console.log(`wrote docs/screenshots/${name}`);
};
const say = async (page: Page, text: string) => {
  await myTurn(page);
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.keyboard.press('Enter');
};

async function seatPage(browser: Browser): Promise<void> {
  const out = join(tmp.path, 'seat');
  const serve = start(['serve', '--port', '0', '--scenarios', 'builtin', '--subset', 'mutual_friends', '--modes', 'agents', '--agent2', 'bot', '--limit', '1', '--out', out]);
  const [, link] = await line(serve, /^seat agent1 token \S+ url (\S+)$/, 'the seat link');
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(link!);
  await say(page, 'Hi! I mostly know people from Cobalt Bay University. Do you know anyone who went there?');
  await say(page, 'Most of my friends there like the evening. Anyone who prefers the outdoors?');
  await myTurn(page);
  await shot(page, 'seat.png');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await shot(page, 'seat-phone-dark.png');
  await page.close();
  serve.kill();
}

async function watchPage(browser: Browser): Promise<void> {
  const run = start(['run', '--scenarios', 'builtin', '--modes', 'agents', '--watch', '--out', join(tmp.path, 'watch'), '--subset', 'mutual_friends', '--limit', '3', '--agent1', 'human', '--agent2', 'bot', '--human-deadline', '600000']);
  const [, url] = await line(run, /^watch url (\S+)$/, 'the watch url');
  const [, link] = await line(run, /^seat agent1 token \S+ url (\S+)$/, 'a seat link');
  const watch = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await watch.goto(url!);
  const seat = await browser.newPage();
  await seat.goto(link!);
  await myTurn(seat);
  const playing = watch.locator('#rows tr', { has: watch.locator('.state.playing') });
  await playing.waitFor({ timeout: 30_000 });
  await playing.getByRole('button').click();
  await say(seat, 'Hello! Do you know anyone from Cobalt Bay University?');
  await say(seat, 'I do too. Does your friend like the evening?');
  await myTurn(seat);
  await watch.getByText('Does your friend like the evening?').first().waitFor({ timeout: 30_000 });
  // Row updates are coalesced (a quarter second): wait for the row to show the four turns too.
  await playing.locator('td.num', { hasText: /^4 \// }).waitFor({ timeout: 30_000 });
  await shot(watch, 'watch.png');
  await Promise.all([watch.close(), seat.close()]);
  run.kill();
}

async function annotatePage(browser: Browser): Promise<void> {
  const a = join(tmp.path, 'a');
  const b = join(tmp.path, 'b');
  for (const [dir, mode] of [[a, 'agents'], [b, 'script']] as const) {
    const r = start(['run', '--scenarios', 'builtin', '--modes', mode, '--limit', '1', '--concurrency', '1', '--out', dir]);
    if ((await within(r.exited, 120_000, `the ${mode} run`, [r])) !== 0) throw new Error(`the ${mode} run failed`);
  }
  const study = start(['annotate', a, b, '--port', '0', '--out', join(tmp.path, 'ann.jsonl'), '--annotators', 'ann1']);
  const [, link] = await line(study, /^annotator "ann1": (\S+)$/, 'the annotator link');
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(link!);
  await page.getByText(/Pair 1 of/).waitFor({ timeout: 30_000 });
  await shot(page, 'annotate.png');
  await page.close();
  study.kill();
}

async function main(): Promise<void> {
  if (!hasChromium) throw new Error(`no Chromium at ${CHROMIUM} (apt-get install chromium, or set PARLEY_CHROMIUM)`);
  mkdirSync(OUT, { recursive: true });
  const browser = await launchChromium();
  try {
    await seatPage(browser);
    await watchPage(browser);
    await annotatePage(browser);
  } finally {
    await browser.close();
    for (const p of procs) p.kill();
    tmp.remove();
  }
}

main().catch((err: Error) => {
  console.error(`screenshots: ${err.message}`);
  process.exitCode = 1;
});
