import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { episode, mfScenario, writeRunDir } from '../../evaluator/testing/fixtures.js';
import { hasChromium } from '../helpers/browser.js';
import { browserSuite } from '../helpers/test-browser.js';
import { parley } from '../helpers/processes.js';
import { clickEveryLinkUnpwned, pwned } from '../helpers/hostile-payload.js';

/** A payload per kind of attack: a script link, an image from another host, and a newline that starts Markdown. */
const hostile = (field: string) => `${field} [x](javascript:window.__pwned='${field}') <img src="http://evil.example/${field}.png" onerror="window.__pwned='${field}'">\n![i](http://evil.example/nl-${field}.png)\n# ${field}`;

/**
 * Issue 19 contract 3 (the report half): a run whose scenario and records carry `[x](javascript:…)`,
 * `<img src=…>` and newline payloads in every field the report shows; `parley report` writes report.html
 * and the transcript pages; Chromium opens each, clicks every link, and sees no script run and no request
 * outside the report's folder.
 */
describe.skipIf(!hasChromium)('a hostile run\'s report in Chromium', () => {
  const suite = browserSuite('hostile-report');
  const { tmp, procs } = suite;
  let runDir = '';
  suite.onTeardown(() => {
    if (runDir) rmSync(runDir, { recursive: true, force: true });
  });

  it('runs no script and requests nothing outside its folder, every link clicked', async () => {
    const s = mfScenario('mf-1');
    // Written past the schema, as a hostile file or remote agent would have it recorded.
    Object.assign(s, { id: hostile('id'), pairId: hostile('pair'), source: hostile('source'), subsets: [hostile('subset')], codename: hostile('codename') });
    s.seats[0]!.character.name = hostile('name');
    const eps = (['script', 'agents'] as const).map((mode) => {
      const e = episode({ scenario: s, mode, runId: 'run-h', models: [hostile('policy'), hostile('model')], moves: [['a', 'speak', hostile('speech')], ['b', 'speak', 'fine']] });
      return JSON.parse(JSON.stringify(e).replaceAll('"mf-1"', JSON.stringify(hostile('id')))) as typeof e;
    });
    runDir = await writeRunDir([s], eps);
    const out = join(tmp.path, 'report');
    const report = parley(['report', runDir, '--out', out]);
    procs.push(report);
    expect(await report.exited, report.stderr.join('\n')).toBe(0);

    const folder = pathToFileURL(out).href;
    const pages = ['report.html', ...readdirSync(join(out, 'transcripts')).map((f) => `transcripts/${f}`)];
    expect(pages.length).toBeGreaterThan(1);
    const outside: string[] = [];
    let clicked = 0;
    // One context and page for all the pages (each goto is a fresh document): a context of its own per page
    // cost Chromium ~0.8 s of CPU each on the project's machines, and the pages keep no state between them.
    const context = await suite.browser.newContext();
    const page = await context.newPage();
    page.on('dialog', (d) => void d.dismiss());
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (!url.startsWith(`${folder}/`)) outside.push(url);
      return url.startsWith(`${folder}/`) ? route.continue() : route.abort();
    });
    page.on('request', (r) => {
      if (!r.url().startsWith(`${folder}/`)) outside.push(r.url());
    });
    for (const file of pages) {
      const url = `${folder}/${file}`;
      // Checked as opened, before any click: no script ran, and the payloads are shown as text, not dropped.
      await page.goto(url);
      expect(await page.evaluate(pwned)).toBeNull();
      expect(await page.locator('body').innerText()).toContain('evil.example');
      expect(await page.locator('img').count()).toBe(0);
      clicked += await clickEveryLinkUnpwned(page, url, file);
      expect(await page.evaluate(pwned)).toBeNull();
    }
    await context.close();
    expect(clicked).toBeGreaterThan(0);
    expect(outside).toEqual([]);
  }, 180_000);
});
