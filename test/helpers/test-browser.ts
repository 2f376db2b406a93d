import { chromium, type Browser, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { processSuite, suiteResource, type ProcessSuite } from './process-suite.js';
import { launchChromium } from './browser.js';

/**
 * A test file's browser: a connection to the system tier's one Chromium (test/setup/chromium-server.ts),
 * or a browser of its own when run without that setup. Closing it (in afterAll) closes this file's
 * contexts and pages.
 */
export function testChromium(): Promise<Browser> {
  const endpoint = inject('chromiumEndpoint');
  return endpoint ? chromium.connect(endpoint) : launchChromium();
}

/**
 * How often a test's `expect.poll` of a page asks again (vitest's default is every 50 ms). Each ask is a
 * Playwright call: a round trip through the test's connection, the Playwright server and the browser, and a
 * query of the page, for as long as the test waits for a bot's move or a run's progress. Polling a 60-item list
 * for 8 s (load ~25): at 50 ms Chromium took 0.05-0.06 CPU-s a second (the idle page 0.03) and Node (the
 * Playwright client and server) 0.06-0.075; at 250 ms 0.015 and 0.018. A wait ends at most 200 ms later.
 */
export const PAGE_POLL = { interval: 250 } as const;

/** Playwright's viewport for a new page, which `BrowserSuite.page` restores. */
export const DEFAULT_VIEWPORT = { width: 1280, height: 720 } as const;

/** What a browser test file shares between its tests (see `browserSuite`). */
export interface BrowserSuite extends ProcessSuite {
  /** The file's browser (`testChromium`), open from beforeAll to afterAll. */
  readonly browser: Browser;
  /**
   * The file's one page (a tab), as a new page would be: at `viewport` (default DEFAULT_VIEWPORT), in the
   * light colour scheme without reduced motion. Each test navigates it where it needs it; a test that
   * needs two pages at once opens the second itself. Closed with the browser.
   */
  page(viewport?: { width: number; height: number }): Promise<Page>;
}

/** Whether the page's documents are told of a dark scheme or reduced motion (what `BrowserSuite.page` undoes). */
const EMULATED_MEDIA = "matchMedia('(prefers-color-scheme: dark)').matches || matchMedia('(prefers-reduced-motion: reduce)').matches";

/**
 * Registers, in the calling `describe`, a process suite (`processSuite`) and the file's browser, opened
 * in beforeAll and closed after the processes are killed. Its tests share one page (`page()`): a new
 * page cost the shared Chromium ~0.5-0.8 s of CPU (a context, a frame, Playwright's scripts in it), a
 * navigation of the same page a fraction of it; pages of different servers never share storage (another
 * port is another origin) and a navigation starts a fresh document.
 * `page()` changes the page only where it differs from what is asked: a new page is made at its viewport, and
 * the size and the media emulation are set again only when a test changed them. Each setting is a round trip
 * through the browser and a style and layout pass of the document shown (the last test's page, live): the
 * suite's 12 `page()` calls made 24 such settings, 21 of them to what the page already had.
 */
export function browserSuite(prefix: string): BrowserSuite {
  const suite = processSuite(prefix);
  const browser = suiteResource(suite, 'the browser', testChromium, (b) => b.close(), 60_000);
  let shared: Page | null = null;
  return {
    ...suite,
    get browser() {
      return browser();
    },
    async page(viewport = DEFAULT_VIEWPORT) {
      if (!shared || shared.isClosed()) return (shared = await browser().newPage({ viewport }));
      const now = shared.viewportSize();
      if (now?.width !== viewport.width || now.height !== viewport.height) await shared.setViewportSize(viewport);
      if (await shared.evaluate(EMULATED_MEDIA)) await shared.emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' });
      return shared;
    },
  };
}
