import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (installed by .ci/run with apt-get when missing); never a downloaded browser. */
export const CHROMIUM = process.env.PARLEY_CHROMIUM ?? '/usr/bin/chromium';

/** Whether a browser is available (tests are skipped with a reason otherwise, never silently passed). */
export const hasChromium = existsSync(CHROMIUM);

export const CHROMIUM_ARGS: readonly string[] = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'];

/** A headless Chromium of its own (tools; tests use `testChromium`). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS] });
}
