import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (installed by .ci/run with apt-get when missing); never a downloaded browser. */
export const CHROMIUM = process.env.PARLEY_CHROMIUM ?? '/usr/bin/chromium';

/** Whether a browser is available (tests are skipped with a reason otherwise, never silently passed). */
export const hasChromium = existsSync(CHROMIUM);

/**
 * Chromium's flags for tests. The last two cap how many renderer processes it starts: without them the seven
 * browser files started ~67 renderers (a spare one kept warm beside every page) and Chromium took ~47 s of
 * CPU, a tenth of the suite's on 2 cores; with them ~44 renderers and ~37 s. Pages still get their own
 * JavaScript worlds and contexts their own storage: only processes are shared.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--renderer-process-limit=2',
  '--disable-features=SpareRendererForSitePerProcess',
];

/** A headless Chromium of its own (tools; tests use `testChromium`). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS] });
}
