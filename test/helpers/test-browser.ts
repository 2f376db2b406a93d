import { chromium, type Browser } from 'playwright-core';
import { inject } from 'vitest';
import { processSuite, suiteResource, type ProcessSuite } from './process-suite.js';
import { launchChromium } from './browser.js';

/**
 * A test file's browser: a connection to the system tier's one Chromium (test/setup/chromium-server.ts),
 * or a browser of its own when run without that setup. Closing it (in afterAll) closes this file's
 * contexts and pages; pages are opened per test with `browser.newPage()`.
 */
export function testChromium(): Promise<Browser> {
  const endpoint = inject('chromiumEndpoint');
  return endpoint ? chromium.connect(endpoint) : launchChromium();
}

/** What a browser test file shares between its tests (see `browserSuite`). */
export interface BrowserSuite extends ProcessSuite {
  /** The file's browser (`testChromium`), open from beforeAll to afterAll. */
  readonly browser: Browser;
}

/**
 * Registers, in the calling `describe`, a process suite (`processSuite`) and the file's browser, opened
 * in beforeAll and closed after the processes are killed.
 */
export function browserSuite(prefix: string): BrowserSuite {
  const suite = processSuite(prefix);
  const browser = suiteResource(suite, 'the browser', testChromium, (b) => b.close(), 60_000);
  return {
    ...suite,
    get browser() {
      return browser();
    },
  };
}
