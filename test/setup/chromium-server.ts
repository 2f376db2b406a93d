import { chromium, type BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM, CHROMIUM_ARGS, hasChromium } from '../helpers/browser.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The system tier's one Chromium (test/helpers/browser.ts `testChromium`), or null when none is installed. */
    chromiumEndpoint: string | null;
  }
}

/**
 * One headless Chromium for the whole system tier instead of one per browser test file: each launch cost
 * about a second of CPU on this 2-core machine, where the suite is CPU-bound. Every file still gets its own
 * connection, and with it its own contexts and pages (closed with the connection), so files share nothing
 * but the browser process.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let server: BrowserServer | null = null;
  if (hasChromium) server = await chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS], host: '127.0.0.1' });
  project.provide('chromiumEndpoint', server?.wsEndpoint() ?? null);
  return async () => {
    await server?.close();
  };
}
