import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hasChromium } from '../helpers/browser.js';
import { browserSuite } from '../helpers/test-browser.js';
import { parley, type CliProcess } from '../helpers/processes.js';
import { darkColourViolations, seriousViolations } from '../helpers/axe.js';
import { botRunFixture, copyOf } from '../helpers/run-fixture.js';

/**
 * The human naturalness study (issue 13, contract 4): `parley annotate RUN_A RUN_B --port P --out ANN`
 * serves a page; annotators choose in Chromium, each choice is a line in ANN; the study resumes from the
 * file; `parley compare --human ANN` prints win rates with Wilson intervals and the annotators' kappa.
 */
describe.skipIf(!hasChromium)('parley annotate + compare --human', () => {
  const suite = browserSuite('annotate');
  const { tmp, procs } = suite;

  /** Starts the study; returns each annotator's printed link (`…/#token=T`). */
  const start = async (a: string, b: string, ann: string): Promise<{ proc: CliProcess; url: (name: string) => string }> => {
    const proc = parley(['annotate', a, b, '--port', '0', '--out', ann, '--annotators', 'ann1,ann2']);
    procs.push(proc);
    const links = new Map<string, string>();
    for (const name of ['ann1', 'ann2']) {
      const [, link] = await proc.line(new RegExp(`^annotator "${name}": (http://127\\.0\\.0\\.1:\\d+/#token=[0-9a-f]{32})$`));
      links.set(name, link!);
    }
    return { proc, url: (name) => links.get(name)! };
  };

  const annotate = async (page: Page, url: string, choices: Array<'A' | 'B'>) => {
    await page.goto(url);
    for (const [i, c] of choices.entries()) {
      await page.getByText(`Pair ${i + 1} of ${choices.length}`).waitFor({ timeout: 30_000 });
      await expect(page.getByRole('region', { name: 'Conversation A' }).innerText()).resolves.toMatch(/Turn #0/);
      await expect(page.getByRole('region', { name: 'Characters' }).innerText()).resolves.toMatch(/Goal: /);
      if (i === 0) {
        // axe-core (issue 25, contract 2): no serious or critical violation, light and dark (COLOUR_RULES).
        expect(await seriousViolations(page)).toEqual([]);
        expect(await darkColourViolations(page)).toEqual([]);
        await page.emulateMedia({ colorScheme: 'light' });
        await page.getByRole('textbox', { name: 'Reason (optional)' }).fill('shorter turns');
      }
      await page.getByRole('button', { name: `Choose ${c}` }).click();
    }
    await page.getByText(/All 2 pair\(s\) answered/).waitFor({ timeout: 30_000 });
  };

  it('records each choice as a line, resumes, and compare --human reads it', async () => {
    const a = join(tmp.path, 'a');
    const b = join(tmp.path, 'b');
    const ann = join(tmp.path, 'ann.jsonl');
    // The two runs are only the study's input: bot runs of two Craigslist scenarios, agents (the run
    // test/eval-batch.test.ts and probe.test.ts also use, built once for the suite) and script.
    const [runA, runB] = await Promise.all([
      botRunFixture(['--subset', 'craigslist_bargains', '--modes', 'agents', '--limit', '2']),
      botRunFixture(['--subset', 'craigslist_bargains', '--modes', 'script', '--limit', '2']),
    ]);
    copyOf(runA, a);
    copyOf(runB, b);

    const first = await start(a, b, ann);
    const page = await suite.page();
    await annotate(page, first.url('ann1'), ['A', 'B']);
    const lines = readFileSync(ann, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ annotator: 'ann1', reason: 'shorter turns', winner: lines[0].aShownFirst ? 'A' : 'B' });
    first.proc.kill();
    await first.proc.exited;

    // Resumed: ann1 has nothing left; ann2 answers both pairs into the same file.
    const second = await start(a, b, ann);
    await page.goto(second.url('ann1'));
    await page.getByText(/All 2 pair\(s\) answered/).waitFor({ timeout: 30_000 });
    // The second annotator in the same tab (the study keeps no state in the browser: the token is in the
    // link). From a blank page: a link that differs only in its fragment would not load the page again.
    await page.goto('about:blank');
    await annotate(page, second.url('ann2'), ['A', 'A']);
    expect(readFileSync(ann, 'utf8').trim().split('\n')).toHaveLength(4);
    second.proc.kill();

    const compare = parley(['compare', '--human', ann]);
    procs.push(compare);
    expect(await compare.exited).toBe(0);
    const out = compare.stdout.join('\n');
    expect(out).toMatch(/4 answer\(s\) from 2 annotator\(s\) on 2 pair\(s\)/);
    expect(out).toMatch(/A \(.*\) more natural: \d\/4 = [\d.]+% \[95% Wilson [\d.]+%, [\d.]+%\]/);
    expect(out).toMatch(/Fleiss' kappa/);

    // parley report shows the study in its own section.
    const rep = join(tmp.path, 'report');
    const report = parley(['report', a, '--human', ann, '--out', rep]);
    procs.push(report);
    expect(await report.exited).toBe(0);
    expect(readFileSync(join(rep, 'report.md'), 'utf8')).toMatch(/## Human naturalness study\n\n- human naturalness study: 4 answer\(s\)/);
  }, 240_000);
});
