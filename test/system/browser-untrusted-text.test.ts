import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageHtml } from '../../web/assets.js';
import { hasChromium } from '../helpers/browser.js';
import { testChromium } from '../helpers/test-browser.js';

const root = join(import.meta.dirname, '..', '..');
const css = (...files: string[]) => files.map((f) => readFileSync(join(root, 'web', f), 'utf8')).join('\n');

/** The seat page's own renderers (messages, outcome, cards), bundled for the page under test as `window.R`. */
async function renderers(): Promise<string> {
  const out = await build({
    stdin: {
      contents: [
        "export { messageItem, outcomeNodes } from './web/seat/messages.ts';",
        "export { partnerCard, selfCard } from './web/seat/cards.ts';",
        "export { outcomeParts } from './seat-client/outcome.ts';",
        "export { el } from './web/shared/dom.ts';",
      ].join('\n'),
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    write: false,
    format: 'iife',
    globalName: 'R',
    platform: 'browser',
    logLevel: 'silent',
  });
  return out.outputFiles[0]!.text;
}

/** The characters of `selector`'s first element in the order they are drawn: line by line, left to right. */
const drawn = (page: Page, selector: string) =>
  page.evaluate(`(() => {
    const root = document.querySelector(${JSON.stringify(selector)});
    const chars = [];
    const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const text = n.textContent || '';
      for (let i = 0; i < text.length; i++) {
        const range = document.createRange();
        range.setStart(n, i);
        range.setEnd(n, i + 1);
        const r = range.getBoundingClientRect();
        if (r.width > 0) chars.push({ line: Math.round(r.top / 4), x: r.left, c: text[i] });
      }
    }
    return chars.sort((a, b) => a.line - b.line || a.x - b.x).map((ch) => ch.c).join('');
  })()`) as Promise<string>;

/** Runs browser-side `body` (JavaScript, with `R` the renderers and `arg` the argument) in `page`. */
const inPage = <T>(page: Page, body: string, arg: unknown = null) => page.evaluate(`((R, arg) => { ${body} })(window.R, ${JSON.stringify(arg)})`) as Promise<T>;

/**
 * Issue 35, untrusted text in the browser: a partner's right-to-left override once shared a text node with
 * Parley's words, so `select \u202Enna` was drawn as "selected ann" and the end screen's outcome sentence
 * was reversed after it; long unbroken tokens widened the chat page's side panel (a 36,000-px scroll area)
 * and the annotation page's context panel. Here the seat page's own renderers draw hostile names and moves
 * in Debian's Chromium, with the pages' own stylesheets, and the test reads what is drawn, in order.
 */
describe.skipIf(!hasChromium)('red team: untrusted text in the browser pages', () => {
  let browser: Browser;
  let page: Page;
  let seatRenderers = '';
  beforeAll(async () => {
    browser = await testChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    seatRenderers = await renderers();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** The page shows the seat page's chat, end screen and side panel, empty, with `R` its renderers (a fresh document). */
  const seatDocument = async () => {
    await page.setContent(`<!doctype html><html lang="en"><head><meta charset="utf-8"><style>${css('style/base.css', 'seat/seat.css')}</style></head>
      <body class="app"><div class="seat-layout"><div class="conversation"><ol id="chat" class="messages"></ol><div id="end" class="end"></div></div><aside id="panel" class="panel"></aside></div></body></html>`);
    await page.addScriptTag({ content: seatRenderers });
  };

  it('a move naming "\\u202Enna" is not drawn as "selected ann", and the outcome sentence after it keeps its order', async () => {
    await seatDocument();
    await inPage(page, `
      const move = { type: 'turn.event', v: 1, id: 'e', turn: 1, seat: 'agent2', action: { type: 'action', argument: 'select \\u202Enna' } };
      document.getElementById('chat').append(R.messageItem(move, 'Bob', false));
      const mine = { ...move, turn: 0, seat: 'agent1', action: { type: 'action', argument: 'select Ann' } };
      const parts = R.outcomeParts('mutual_friends', [mine, move], 'agent1', () => 'Bob');
      document.getElementById('end').append(R.el('p', { class: 'outcome' }, 'Outcome: ', ...R.outcomeNodes(parts)));`);
    const bubble = await drawn(page, '#chat .bubble');
    expect(bubble.toLowerCase()).not.toContain('selected ann');
    expect(bubble).toContain('selected [U+202E]nna');
    const outcome = await drawn(page, '#end .outcome');
    expect(outcome).toMatch(/^Outcome: You selected Ann; Bob selected \[U\+202E\]nna\. ?No agreement on the shared ?friend\.$/);
    // Every name stands in its own isolate, apart from Parley's words.
    expect(await page.locator('#end .outcome bdi').allTextContents()).toEqual(['Ann', 'Bob', '[U+202E]nna']);
    expect(await page.locator('#chat .bubble bdi').allTextContents()).toEqual(['Bob', '[U+202E]nna']);
  });

  it('a 5,000-character token wraps inside the side panel and the chat: nothing scrolls sideways', async () => {
    const long = 'x'.repeat(5000);
    await seatDocument();
    await inPage(page, `
      const token = arg;
      const partner = { seat: 'agent2', relationship: 0, profile: { name: token, occupation: token }, sharedHistory: token };
      const self = { goal: token, hints: [{ kind: 'note', text: token }], profile: { name: token, publicInfo: token }, task: null };
      document.getElementById('panel').replaceChildren(R.partnerCard(partner, token), ...R.selfCard(self, null));
      document.getElementById('chat').replaceChildren(R.messageItem({ type: 'turn.event', v: 1, id: 'e', turn: 3, seat: 'agent2', action: { type: 'non-verbal communication', argument: token } }, token, false));`, long);
    const widths = await inPage<Record<string, { scroll: number; client: number }>>(page, `
      const of = (id) => { const e = document.getElementById(id); return { scroll: e.scrollWidth, client: e.clientWidth }; };
      return { panel: of('panel'), chat: of('chat'), page: { scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth } };`);
    for (const w of Object.values(widths)) expect(w.scroll).toBeLessThanOrEqual(w.client + 1);
  });

  it("the annotation page's context panel wraps a long token in the question, setting and characters", async () => {
    // The file's one page with the annotation page's document (a second page cost the shared Chromium more than a document).
    const html = pageHtml('annotate').replace(/<link[^>]*>/g, '').replace(/<script[^>]*><\/script>/g, '');
    await page.setContent(html.replace('</head>', `<style>${css('style/base.css', 'annotate/annotate.css')}</style></head>`));
    const widths = await inPage<{ context: number[]; page: number[] }>(page, `
      const token = arg;
      document.getElementById('study').hidden = false;
      for (const id of ['question', 'setting']) document.getElementById(id).textContent = token;
      const h = document.createElement('h3');
      h.textContent = token;
      document.getElementById('characters').append(h);
      const context = document.querySelector('.context');
      return { context: [context.scrollWidth, context.clientWidth], page: [document.documentElement.scrollWidth, document.documentElement.clientWidth] };`, 'y'.repeat(5000));
    expect(widths.context[0]).toBeLessThanOrEqual(widths.context[1]! + 1);
    expect(widths.page[0]).toBeLessThanOrEqual(widths.page[1]! + 1);
  });
});
