/**
 * Escaping for text and attributes, and a small XML well-formedness checker: the report's SVG charts
 * are written by hand, and the tests (and the report writer itself) check every one with it.
 */

/** Escapes text for XML/HTML element content and attribute values. */
export function esc(text: string | number): string {
  return String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

const NAME = /^[A-Za-z_:][A-Za-z0-9_.:-]*/;

/**
 * Checks that `xml` is well-formed: one root element, properly nested and closed tags, quoted unique
 * attributes, known entities only, no stray `<` or `&`. Returns null when well-formed, else the first problem
 * with its offset. Handles the XML declaration, comments, CDATA and processing instructions; no DTDs.
 */
export function xmlWellFormedError(xml: string): string | null {
  const stack: string[] = [];
  let i = 0;
  let roots = 0;
  const text = (from: number, to: number): string | null => {
    const chunk = xml.slice(from, to);
    const amp = /&(?!(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9A-Fa-f]+);)/.exec(chunk);
    if (amp) return `bad '&' at ${from + amp.index}`;
    if (stack.length === 0 && chunk.trim() !== '') return `text outside the root element at ${from}`;
    return null;
  };
  if (xml.startsWith('<?xml')) {
    const end = xml.indexOf('?>');
    if (end < 0) return 'unterminated XML declaration';
    i = end + 2;
  }
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    const err = text(i, lt < 0 ? xml.length : lt);
    if (err) return err;
    if (lt < 0) break;
    if (xml.startsWith('<!--', lt)) {
      const end = xml.indexOf('-->', lt + 4);
      if (end < 0) return `unterminated comment at ${lt}`;
      i = end + 3;
      continue;
    }
    if (xml.startsWith('<![CDATA[', lt)) {
      if (stack.length === 0) return `CDATA outside the root at ${lt}`;
      const end = xml.indexOf(']]>', lt);
      if (end < 0) return `unterminated CDATA at ${lt}`;
      i = end + 3;
      continue;
    }
    if (xml.startsWith('<?', lt)) {
      const end = xml.indexOf('?>', lt);
      if (end < 0) return `unterminated processing instruction at ${lt}`;
      i = end + 2;
      continue;
    }
    if (xml.startsWith('<!', lt)) return `DTD or declaration not supported at ${lt}`;
    if (xml[lt + 1] === '/') {
      const m = NAME.exec(xml.slice(lt + 2));
      if (!m) return `bad closing tag at ${lt}`;
      const after = lt + 2 + m[0].length;
      const gt = /^\s*>/.exec(xml.slice(after));
      if (!gt) return `bad closing tag </${m[0]} at ${lt}`;
      const open = stack.pop();
      if (open !== m[0]) return `</${m[0]}> at ${lt} closes <${open ?? 'nothing'}>`;
      i = after + gt[0].length;
      continue;
    }
    const m = NAME.exec(xml.slice(lt + 1));
    if (!m) return `bad '<' at ${lt}`;
    const name = m[0];
    let j = lt + 1 + name.length;
    const seen = new Set<string>();
    for (;;) {
      const ws = /^\s*/.exec(xml.slice(j))![0];
      j += ws.length;
      if (xml.startsWith('/>', j)) {
        j += 2;
        if (stack.length === 0) roots++;
        break;
      }
      if (xml[j] === '>') {
        j += 1;
        if (stack.length === 0) roots++;
        stack.push(name);
        break;
      }
      if (!ws) return `missing space before attribute in <${name}> at ${j}`;
      const a = NAME.exec(xml.slice(j));
      if (!a) return `bad attribute in <${name}> at ${j}`;
      if (seen.has(a[0])) return `duplicate attribute ${a[0]} in <${name}> at ${j}`;
      seen.add(a[0]);
      j += a[0].length;
      const eq = /^\s*=\s*(["'])/.exec(xml.slice(j));
      if (!eq) return `attribute ${a[0]} in <${name}> is not quoted at ${j}`;
      j += eq[0].length;
      const close = xml.indexOf(eq[1]!, j);
      if (close < 0) return `unterminated attribute ${a[0]} at ${j}`;
      const value = xml.slice(j, close);
      if (value.includes('<')) return `'<' in attribute ${a[0]} at ${j}`;
      const amp = /&(?!(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9A-Fa-f]+);)/.exec(value);
      if (amp) return `bad '&' in attribute ${a[0]} at ${j + amp.index}`;
      j = close + 1;
    }
    if (roots > 1) return `second root element <${name}> at ${lt}`;
    i = j;
  }
  if (stack.length) return `unclosed <${stack[stack.length - 1]}>`;
  if (roots !== 1) return 'no root element';
  return null;
}
