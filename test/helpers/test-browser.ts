import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { tempDir, type CliProcess } from '../../testkit/processes.js';
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
export interface BrowserSuite {
  /** The file's scratch folder, removed after its tests. */
  readonly tmp: { path: string; remove(): void };
  /** The CLI processes the tests start, killed after them. */
  readonly procs: CliProcess[];
  /** The file's browser (`testChromium`), open from beforeAll to afterAll. */
  readonly browser: Browser;
  /** Runs `fn` after the tests, before the processes are killed (sockets, servers, other folders). */
  onTeardown(fn: () => void | Promise<void>): void;
}

/**
 * Registers a browser test file's fixture in the calling `describe`: a scratch folder named by `prefix`,
 * the processes the tests start and the browser, opened in beforeAll and all cleaned up in afterAll.
 */
export function browserSuite(prefix: string): BrowserSuite {
  const tmp = tempDir(prefix);
  const procs: CliProcess[] = [];
  const teardown: Array<() => void | Promise<void>> = [];
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await testChromium();
  }, 60_000);
  afterAll(async () => {
    for (const fn of teardown) await fn();
    for (const p of procs) p.kill();
    await browser?.close();
    tmp.remove();
  });
  return {
    tmp,
    procs,
    get browser() {
      if (!browser) throw new Error('the browser opens in beforeAll');
      return browser;
    },
    onTeardown: (fn) => void teardown.push(fn),
  };
}
