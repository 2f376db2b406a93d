import { chromium, type Browser } from 'playwright-core';
import { inject } from 'vitest';
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
