import { esc } from './xml.js';

/**
 * A small Markdown → HTML converter for the report's own Markdown (headings, paragraphs, lists, pipe
 * tables, **bold**, `code`, and images). Images whose source has an SVG in `inline` are replaced by the
 * SVG itself, so report.html is self-contained. Not a general Markdown implementation.
 */
function inline(text: string): string {
  const parts = text.split(/(`[^`]*`)/);
  return parts
    .map((p) => {
      if (p.startsWith('`') && p.endsWith('`') && p.length >= 2) return `<code>${esc(p.slice(1, -1))}</code>`;
      return esc(p.replace(/\\\|/g, '|'))
        .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
        .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, '<a href="$2">$1</a>');
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
      out.push(svg ? `<figure>${svg}<figcaption>${inline(img[1]!)}</figcaption></figure>` : `<img src="${esc(img[2]!)}" alt="${esc(img[1]!)}"/>`);
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
