import { describe, expect, it } from 'vitest';
import { pageHtml, WEB_PAGES } from './assets.js';

/** Every page is one shared head around its own body: the head must name the page's own title, stylesheet and script, once. */
describe('pageHtml', () => {
  it.each(WEB_PAGES)('%s: one document, its own stylesheet and script, the body file inside <body>', (page) => {
    const html = pageHtml(page);
    expect(html.startsWith('<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">')).toBe(true);
    expect(html.match(/<title>[^<]+<\/title>/g)).toHaveLength(1);
    expect(html.match(/<link [^>]*>/g)).toEqual([`<link rel="stylesheet" href="/web/${page}.css">`]);
    expect(html.match(/<script [^>]*>/g)).toEqual([`<script src="/web/${page}.js">`]);
    // The page's own content comes after <body> and before its script: ids the page's main.ts looks up.
    const body = html.slice(html.indexOf('<body'), html.indexOf('<script'));
    expect(body).toContain('id="error"');
    expect(html.endsWith('</script>\n</body>\n</html>\n')).toBe(true);
  });
});
