import { describe, expect, it } from 'vitest';
import { markdownToHtml } from './markdown-html.js';
import { mdCell } from './card.js';
import { mdCode, mdText, safeHref } from './markdown-text.js';

/** Payloads a hostile scenario file or remote agent can put in any field the report shows. */
const PAYLOADS = [
  '[x](javascript:alert(1))',
  '<img src=http://evil.example/p.png>',
  'ok\n![p](http://evil.example/n.png)',
  'a\r\n# heading\n| forged | cell |',
  '`code`](javascript:alert(2))',
  '&#x6a;avascript:alert(3)',
  '\\[x\\](javascript:alert(4))',
  'zero\u200bwidth\u2028line',
];

describe('report Markdown escaping (markdown-text.ts)', () => {
  it.each(PAYLOADS)('renders %j as inert text in report.html, one line in report.md', (payload) => {
    for (const md of [mdText(payload), mdCell(payload), mdCode(payload)]) {
      expect(md).not.toMatch(/[\n\r\u2028\u200b]/);
      const html = markdownToHtml(`| a | b |\n|---|---|\n| ${md} | z |\n\n- item ${md}\n\n${md}`);
      expect(html).not.toMatch(/<a\s|<img|<script|javascript:[^<]*<\/a>/i);
      expect(html).not.toMatch(/<h\d/);
      // The table row keeps exactly two cells: the payload cannot forge a column.
      expect(html.match(/<td>/g)).toHaveLength(2);
    }
  });

  it('keeps the visible text of a payload (escaped, not dropped)', () => {
    const html = markdownToHtml(mdText('[x](javascript:alert(1)) <b>'));
    expect(html).toContain('[x](javascript:alert(1)) &lt;b&gt;');
  });

  it('still renders the report\'s own links, bold and relative images as before', () => {
    const html = markdownToHtml('**bold** [3 turns](transcripts/e1.html) [docs](https://example.org/x)');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<a href="transcripts/e1.html">3 turns</a>');
    expect(html).toContain('<a href="https://example.org/x">docs</a>');
  });

  it('drops link targets that are not relative or http(s), and never fetches an image it does not inline', () => {
    expect(markdownToHtml('[x](javascript:alert(1))')).not.toContain('<a');
    expect(markdownToHtml('[x](//evil.example/)')).not.toContain('<a');
    expect(markdownToHtml('[x](data:text/html,hi)')).not.toContain('<a');
    expect(markdownToHtml('![p](http://evil.example/p.png)')).not.toContain('<img');
    expect(safeHref('JaVaScRiPt:alert(1)')).toBeNull();
    expect(safeHref('java\tscript:alert(1)')).toBeNull();
    expect(safeHref('../report.html')).toBe('../report.html');
  });
});
