import { esc } from './xml.js';
import { safeHref } from './markdown-text.js';

/**
 * A small Markdown → HTML converter for the report's own Markdown (headings, paragraphs, lists, pipe
 * tables, **bold**, `code`, backslash escapes, and images). Images whose source has an SVG in `inline` are
 * replaced by the SVG itself, so report.html is self-contained; any other image is shown as its alt text,
 * never fetched. Links keep only relative and http(s) targets (markdown-text.ts `safeHref`); others become
 * plain text. Not a general Markdown implementation.
 */
function inline(text: string): string {
  // A backslash-escaped character is literal text (markdown-text.ts writes data that way): park each one as
  // a NUL-delimited index before any rule (code spans included) can see it, and put it back escaped at the end.
  const literal: string[] = [];
  const parked = text.replace(/\u0000/g, '').replace(/\\(.)/gs, (_, c: string) => `\u0000${literal.push(c) - 1}\u0000`);
  const unpark = (s: string, keepSlash: boolean) => s.replace(/\u0000(\d+)\u0000/g, (_, i: string) => esc(`${keepSlash && literal[Number(i)] !== '|' ? '\\' : ''}${literal[Number(i)]!}`));
  return parked
    .split(/(`[^`]*`)/)
    .map((p) => {
      if (p.startsWith('`') && p.endsWith('`') && p.length >= 2) return `<code>${unpark(esc(p.slice(1, -1)), true)}</code>`;
      const html = esc(p)
        .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
        .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_, label: string, target: string) => {
          const href = safeHref(target.replace(/&amp;/g, '&'));
          return href === null ? label : `<a href="${esc(href)}">${label}</a>`;
        });
      return unpark(html, false);
    })
    .join('');
}

function splitRow(line: string): string[] {
  const cells: string[] = [];
  let cur = '';
  const body = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '\\' && body[i + 1] === '|') {
      cur += '\\|';
      i++;
    } else if (body[i] === '|') {
      cells.push(cur.trim());
      cur = '';
    } else cur += body[i];
  }
  cells.push(cur.trim());
  return cells;
}

/** Converts the report Markdown to an HTML fragment. */
export function markdownToHtml(md: string, inlineSvg: ReadonlyMap<string, string> = new Map()): string {
  const lines = md.split('\n');
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (!line.trim()) {
      i++;
      continue;
    }
    const h = /^(#{1,4})\s+(.*)$/.exec(line);
    if (h) {
      out.push(`<h${h[1]!.length}>${inline(h[2]!)}</h${h[1]!.length}>`);
      i++;
      continue;
    }
    const img = /^!\[([^\]]*)\]\(([^)]+)\)\s*$/.exec(line);
    if (img) {
      const svg = inlineSvg.get(img[2]!);
      out.push(svg ? `<figure>${svg}<figcaption>${inline(img[1]!)}</figcaption></figure>` : `<p>${inline(img[1]!)}</p>`);
      i++;
      continue;
    }
    if (line.trimStart().startsWith('|')) {
      const rows: string[][] = [];
      while (i < lines.length && lines[i]!.trimStart().startsWith('|')) rows.push(splitRow(lines[i++]!));
      const [head, sep, ...body] = rows;
      const isSep = sep?.every((c) => /^:?-+:?$/.test(c));
      out.push('<table>');
      out.push(`<thead><tr>${head!.map((c) => `<th>${inline(c)}</th>`).join('')}</tr></thead>`);
      out.push(`<tbody>${(isSep ? body : rows.slice(1)).map((r) => `<tr>${r.map((c) => `<td>${inline(c)}</td>`).join('')}</tr>`).join('')}</tbody>`);
      out.push('</table>');
      continue;
    }
    if (/^\s*-\s+/.test(line)) {
      out.push('<ul>');
      while (i < lines.length && /^\s*-\s+/.test(lines[i]!)) out.push(`<li>${inline(lines[i++]!.replace(/^\s*-\s+/, ''))}</li>`);
      out.push('</ul>');
      continue;
    }
    const para: string[] = [];
    while (i < lines.length && lines[i]!.trim() && !/^(#{1,4}\s|\||\s*-\s|!\[)/.test(lines[i]!)) para.push(lines[i++]!);
    if (para.length) out.push(`<p>${inline(para.join(' '))}</p>`);
    else i++;
  }
  return out.join('\n');
}
