/**
 * Lenient JSON extraction for model replies that wrap or decorate their JSON: code fences, prose around
 * the object, trailing commas. Returns the first JSON value found, or a reason why none was.
 */
export type Extracted = { ok: true; value: unknown } | { ok: false; reason: string };

/** Strict: the whole reply is one JSON value. */
export function strictJson(content: string): Extracted {
  try {
    return { ok: true, value: JSON.parse(content.trim()) };
  } catch {
    return { ok: false, reason: 'the reply is not valid JSON' };
  }
}

/** The first balanced `{…}` or `[…]` in `text`, skipping brackets inside strings. */
function firstBalanced(text: string, from = 0): { start: number; end: number } | null {
  const start = text.slice(from).search(/[{[]/);
  if (start < 0) return null;
  const begin = from + start;
  const stack: string[] = [];
  let inString = false;
  for (let i = begin; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') stack.push(c === '{' ? '}' : ']');
    else if (c === '}' || c === ']') {
      if (stack.pop() !== c) return null;
      if (stack.length === 0) return { start: begin, end: i + 1 };
    }
  }
  return null;
}

/**
 * `text` with the control characters inside its JSON strings written as escapes: what Python's
 * `json.loads(..., strict=False)` accepts, as langchain's pydantic parser read SOTOPIA's replies (a speech
 * or a judge's reasoning with a raw line break in it). Characters outside strings are left alone.
 */
export function controlCharsEscaped(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString && c === '\\') {
      out += c + (text[i + 1] ?? '');
      i++;
      continue;
    }
    if (c === '"') inString = !inString;
    else if (inString && c < ' ') {
      out += `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
      continue;
    }
    out += c;
  }
  return out;
}

/** Lenient: strip fences, take the first balanced JSON value, tolerate trailing commas and raw control characters in strings. */
export function lenientJson(content: string): Extracted {
  const fenced = /```[a-zA-Z0-9_-]*\s*\n?([\s\S]*?)```/.exec(content);
  const candidates = fenced ? [fenced[1]!, content] : [content];
  for (const text of candidates) {
    let from = 0;
    for (let tries = 0; tries < 5; tries++) {
      const span = firstBalanced(text, from);
      if (!span) break;
      const slice = text.slice(span.start, span.end);
      for (const attempt of [slice, slice.replace(/,\s*([}\]])/g, '$1'), controlCharsEscaped(slice)]) {
        try {
          return { ok: true, value: JSON.parse(attempt) };
        } catch {
          /* try the next repair */
        }
      }
      from = span.start + 1;
    }
  }
  return { ok: false, reason: 'no JSON object could be found in the reply' };
}
