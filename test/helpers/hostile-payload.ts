import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * The payloads of issue 19's report attacks (r01/r02), one per field: a `javascript:` link that would set
 * `window.__pwned`, an image from another host whose `onerror` would do the same, and a newline that starts
 * a Markdown heading and an image line of its own. `max` keeps a payload inside a field's edge limit
 * (the attack shrinks, the three kinds stay).
 */
export function hostile(field: string, max = 400): string {
  const full = `${field} [x](javascript:top.__pwned='${field}') <img src="http://evil.example/${field}.png" onerror="top.__pwned='${field}'">\n![i](http://evil.example/nl-${field}.png)\n# HEADING-${field}`;
  if (full.length <= max) return full;
  const short = `${field} [x](javascript:top.__pwned=1)<img src=//evil.example/>\n# H`;
  if (short.length <= max) return short;
  return `[x](javascript:top.__pwned=1)\n<img src=//a.b/>`.slice(0, max);
}

/** Where a Markdown file turned a payload into something other than text (null when it did not). */
export function rawMarkdownIn(md: string): string | null {
  const checks: Array<[string, RegExp]> = [
    ['raw HTML', /(?<!\\)<(img|script|a|iframe|svg|object|embed|style|link|meta)\b/i],
    ['a javascript: link', /(?<!\\)\]\(\s*javascript:/i],
    ['an image', /(?<!\\)!\[[^\]]*(?<!\\)\]\(\s*(https?:)?\/\//i],
    ['a heading a payload started', /^#{1,6}\s+(HEADING-|H\b)/m],
  ];
  for (const [what, re] of checks) {
    const m = re.exec(md);
    if (m) return `${what}: …${md.slice(Math.max(0, m.index - 60), m.index + 80)}…`;
  }
  return null;
}

/** What a planted payload sets when it runs on a page (`window.__pwned`), or null: evaluated in the page. */
export const pwned = (): unknown => (globalThis as unknown as { __pwned?: unknown }).__pwned ?? null;

/**
 * Clicks every link of the page at `url` (where `page` is when called), and checks after each click that no
 * payload ran (labelled `label` and the link's number). Returns how many were clicked. The page is opened
 * again before a click only when the click before took it elsewhere: a Chromium navigation costs ~0.3–0.5 s
 * of CPU on the project's machines, and a page still at `url` is the one its links are on.
 */
export async function clickEveryLinkUnpwned(page: Page, url: string, label: string): Promise<number> {
  const links = await page.locator('a').count();
  for (let i = 0; i < links; i++) {
    if (page.url() !== url) await page.goto(url);
    await page.locator('a').nth(i).click({ timeout: 5_000 });
    await page.waitForLoadState('load');
    expect(await page.evaluate(pwned), `${label} link ${i}`).toBeNull();
  }
  return links;
}
