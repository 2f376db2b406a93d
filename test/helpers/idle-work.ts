import type { Page } from 'playwright-core';

/** What a page did over a window in which nobody touched it. */
export interface IdleWork {
  /** Each DOM mutation, as `<kind> #<id of the nearest element with one>` (e.g. `characterData #countdown`). */
  mutations: string[];
  /** Chromium's style recalculations and layouts in the window (DevTools' Performance metrics). */
  recalcStyles: number;
  layouts: number;
}

/** Resolves in the page when #countdown's text has changed `n` times (rejects after `timeoutMs`). */
const countdownChanged = (page: Page, n: number, timeoutMs: number) =>
  page.evaluate(`new Promise((resolve, reject) => {
    const box = document.getElementById('countdown');
    let last = box.textContent, seen = 0;
    const stop = setTimeout(() => { watch.disconnect(); reject(new Error('the countdown changed ' + seen + ' of ${n} times in ${timeoutMs} ms')); }, ${timeoutMs});
    const watch = new MutationObserver(() => {
      if (box.textContent === last) return;
      last = box.textContent;
      if (++seen < ${n}) return;
      clearTimeout(stop);
      watch.disconnect();
      resolve(seen);
    });
    watch.observe(box, { childList: true, characterData: true, subtree: true });
  })`);

/**
 * Records what `page` does while `clock` (a seat page on its turn: `page` itself by default) shows its
 * countdown change `countdownChanges` times: the window is the page's own clock, not a sleep of the test.
 * The mutations are those of the page's whole document; the counts are Chromium's, for the page's frame.
 */
export async function idleWork(page: Page, opts: { countdownChanges: number; whileOther?: Page }): Promise<IdleWork> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const metric = async (): Promise<Map<string, number>> => new Map((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
  await page.evaluate(`(() => {
    const seen = (window.__idleMutations = []);
    const where = (node) => { const e = node.nodeType === 1 ? node : node.parentElement; const at = e && e.closest('[id]'); return at ? '#' + at.id : '(no id)'; };
    window.__idleWatch = new MutationObserver((records) => { for (const r of records) seen.push(r.type + ' ' + where(r.target)); });
    window.__idleWatch.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  })()`);
  const before = await metric();
  await countdownChanged(opts.whileOther ?? page, opts.countdownChanges, 15_000);
  const after = await metric();
  const mutations = (await page.evaluate(`(() => { window.__idleWatch.takeRecords(); window.__idleWatch.disconnect(); return window.__idleMutations; })()`)) as string[];
  await cdp.detach();
  const delta = (name: string) => (after.get(name) ?? 0) - (before.get(name) ?? 0);
  return { mutations, recalcStyles: delta('RecalcStyleCount'), layouts: delta('LayoutCount') };
}
