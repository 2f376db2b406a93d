import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (installed by .ci/run with apt-get when missing); never a downloaded browser. */
export const CHROMIUM = process.env.PARLEY_CHROMIUM ?? '/usr/bin/chromium';

/** Whether a browser is available (tests are skipped with a reason otherwise, never silently passed). */
export const hasChromium = existsSync(CHROMIUM);

/**
 * One headless Chromium for a whole test file (the machine is shared: one browser, reused, closed in
 * afterAll). Pages are opened per test with `browser.newPage()`.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
}
