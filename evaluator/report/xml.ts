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
  const s: Scan = { xml, i: 0, stack: [], roots: 0 };
  if (xml.startsWith('<?xml')) {
    const end = xml.indexOf('?>');
    if (end < 0) return 'unterminated XML declaration';
    s.i = end + 2;
  }
  while (s.i < xml.length) {
    const lt = xml.indexOf('<', s.i);
    const err = textError(s, s.i, lt < 0 ? xml.length : lt);
    if (err) return err;
    if (lt < 0) break;
    const problem = xml.startsWith('<!', lt) || xml.startsWith('<?', lt) ? special(s, lt) : xml[lt + 1] === '/' ? closingTag(s, lt) : openingTag(s, lt);
    if (problem) return problem;
  }
  if (s.stack.length) return `unclosed <${s.stack[s.stack.length - 1]}>`;
  if (s.roots !== 1) return 'no root element';
  return null;
}

/** Where the check is: the offset, the open elements, how many root elements were seen. */
interface Scan {
  xml: string;
  i: number;
  stack: string[];
  roots: number;
}

const BAD_AMP = /&(?!(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9A-Fa-f]+);)/;

/** Character data between markup: only known entities, and none outside the root element. */
function textError(s: Scan, from: number, to: number): string | null {
  const chunk = s.xml.slice(from, to);
  const amp = BAD_AMP.exec(chunk);
  if (amp) return `bad '&' at ${from + amp.index}`;
  if (s.stack.length === 0 && chunk.trim() !== '') return `text outside the root element at ${from}`;
  return null;
}

/** A comment, CDATA section or processing instruction at `lt` (a DTD is refused). */
function special(s: Scan, lt: number): string | null {
  const { xml } = s;
  const skipTo = (close: string, from: number, what: string): string | null => {
    const end = xml.indexOf(close, from);
    if (end < 0) return `unterminated ${what} at ${lt}`;
    s.i = end + close.length;
    return null;
  };
  if (xml.startsWith('<!--', lt)) return skipTo('-->', lt + 4, 'comment');
  if (xml.startsWith('<![CDATA[', lt)) return s.stack.length === 0 ? `CDATA outside the root at ${lt}` : skipTo(']]>', lt, 'CDATA');
  if (xml.startsWith('<?', lt)) return skipTo('?>', lt, 'processing instruction');
  return `DTD or declaration not supported at ${lt}`;
}

/** `</name>` at `lt`: it must close the innermost open element. */
function closingTag(s: Scan, lt: number): string | null {
  const m = NAME.exec(s.xml.slice(lt + 2));
  if (!m) return `bad closing tag at ${lt}`;
  const after = lt + 2 + m[0].length;
  const gt = /^\s*>/.exec(s.xml.slice(after));
  if (!gt) return `bad closing tag </${m[0]} at ${lt}`;
  const open = s.stack.pop();
  if (open !== m[0]) return `</${m[0]}> at ${lt} closes <${open ?? 'nothing'}>`;
  s.i = after + gt[0].length;
  return null;
}

/** `<name attr="…" …>` or `<name … />` at `lt`: unique quoted attributes, at most one root element. */
function openingTag(s: Scan, lt: number): string | null {
  const { xml } = s;
  const m = NAME.exec(xml.slice(lt + 1));
  if (!m) return `bad '<' at ${lt}`;
  const name = m[0];
  let j = lt + 1 + name.length;
  const seen = new Set<string>();
  for (;;) {
    const ws = /^\s*/.exec(xml.slice(j))![0];
    j += ws.length;
    if (xml.startsWith('/>', j) || xml[j] === '>') {
      if (s.stack.length === 0) s.roots++;
      if (xml[j] === '>') s.stack.push(name);
      j += xml[j] === '>' ? 1 : 2;
      break;
    }
    if (!ws) return `missing space before attribute in <${name}> at ${j}`;
    const attr = attribute(xml, j, name, seen);
    if (typeof attr === 'string') return attr;
    j = attr.end;
  }
  if (s.roots > 1) return `second root element <${name}> at ${lt}`;
  s.i = j;
  return null;
}

/** One `name="value"` at `j`: its end, or the problem. */
function attribute(xml: string, j: number, element: string, seen: Set<string>): { end: number } | string {
  const a = NAME.exec(xml.slice(j));
  if (!a) return `bad attribute in <${element}> at ${j}`;
  if (seen.has(a[0])) return `duplicate attribute ${a[0]} in <${element}> at ${j}`;
  seen.add(a[0]);
  j += a[0].length;
  const eq = /^\s*=\s*(["'])/.exec(xml.slice(j));
  if (!eq) return `attribute ${a[0]} in <${element}> is not quoted at ${j}`;
  j += eq[0].length;
  const close = xml.indexOf(eq[1]!, j);
  if (close < 0) return `unterminated attribute ${a[0]} at ${j}`;
  const value = xml.slice(j, close);
  if (value.includes('<')) return `'<' in attribute ${a[0]} at ${j}`;
  const amp = BAD_AMP.exec(value);
  if (amp) return `bad '&' in attribute ${a[0]} at ${j + amp.index}`;
  return { end: close + 1 };
}
