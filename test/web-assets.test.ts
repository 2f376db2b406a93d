import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pageScript, scriptOf, WEB_PAGES } from '../web/assets.js';
import { cachedPageScript } from '../web/page-bundle.js';

describe("the browser pages' scripts", () => {
  it.each(WEB_PAGES)("%s: one minified script with zod's English messages and none of its other languages", async (page) => {
    const code = await pageScript(page);
    expect(code.length).toBeGreaterThan(500);
    // German and Japanese: zod's messages for an invalid input in its de and ja locales (the seat page's
    // script was 523 KB with every locale, 262 KB without).
    expect(code).not.toMatch(/Ungültige Eingabe|無効な入力/);
    // The annotation, study and organiser pages only read JSON and import no schema: no zod at all.
    if (!['annotate', 'study', 'organiser'].includes(page)) {
      expect(code).toContain('Invalid input');
      expect(code.length).toBeLessThan(400_000);
    }
  });

  it('every page is served from one build in the build cache (web/page-bundle.ts): what a process serves is its file', async () => {
    const files = await Promise.all(WEB_PAGES.map((page) => cachedPageScript(page, WEB_PAGES)));
    expect(new Set(files.map((f) => dirname(f))).size).toBe(1);
    for (const [i, page] of WEB_PAGES.entries()) expect(await pageScript(page)).toBe(readFileSync(files[i]!, 'utf8'));
  });

  it("a cached page file that cannot be read is built in memory instead (the request is still answered)", async () => {
    const code = await scriptOf('organiser', async () => '/nonexistent/parley-web-cache/organiser.js');
    expect(code).toBe(await pageScript('organiser'));
  });
});
