import type { Hint } from '../../protocol/index.js';

/**
 * Text conventions of SOTOPIA's profiles: private goal hints in `<extra_info>`, `<strategy_hint>`,
 * `<clarification_hint>`, judge-only spans in `<p viewer="environment">`, missing values as "nan"/"none",
 * and quotes double-escaped by the export (`\'`).
 */

/** Undoes the export's stray backslash escapes (`Here\'s` → `Here's`). */
export function unescapeQuotes(text: string): string {
  return text.replace(/\\(['"])/g, '$1');
}

/** SOTOPIA writes absent values as "nan", "none" or ""; those become undefined. */
export function absent(value: string | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  const t = value.trim();
  return t === '' || /^(nan|none|null)$/i.test(t) ? undefined : t;
}

const HINT_TAGS = ['extra_info', 'strategy_hint', 'clarification_hint'] as const;

/**
 * A goal split into the text the owner sees as the goal and its private hints. Tags may nest
 * (SOTOPIA puts `<strategy_hint>` inside `<extra_info>`): each hint gets only its own text, and hints
 * are listed in the order they open.
 */
export function splitGoal(raw: string): { goal: string; hints: Hint[] } {
  const text = unescapeQuotes(raw);
  const tag = /<(\/?)(extra_info|strategy_hint|clarification_hint)>/g;
  type Open = { kind: Hint['kind']; text: string; order: number; parenthesized: boolean; nested: Open[]; mixed: boolean; paren?: 'open' | 'close' };
  const stack: Open[] = [];
  const done: Open[] = [];
  let goal = '';
  let last = 0;
  let opened = 0;
  const emit = (chunk: string) => {
    if (stack.length) stack[stack.length - 1]!.text += chunk;
    else goal += chunk;
    // A top-level hint's own text after a nested hint: `(A B)` would not read in the source's order.
    if (stack.length === 1 && stack[0]!.nested.length && chunk.trim()) stack[0]!.mixed = true;
  };
  for (let m = tag.exec(text); m; m = tag.exec(text)) {
    emit(text.slice(last, m.index));
    last = m.index + m[0].length;
    const kind = m[2] as Hint['kind'];
    if (m[1] === '') {
      // A top-level hint right after `(` (and closed right before `)`, checked below): SOTOPIA's renderer keeps the pair.
      // A hint opened inside another: the outer pair's parentheses hold both, which separate hints cannot show.
      // (When the pair holds the outer hint and its nested ones as a whole, they share it: `paren` below.)
      for (const outer of stack) outer.parenthesized = false;
      const entry: Open = { kind, text: '', order: opened++, parenthesized: stack.length === 0 && /\(\s*$/.test(text.slice(0, m.index)), nested: [], mixed: false };
      if (stack.length) stack[0]!.nested.push(entry);
      else if (entry.parenthesized) entry.paren = 'open';
      stack.push(entry);
      if (stack.length === 1) goal += ' ';
    } else {
      // Close the matching open tag (and any unclosed ones inside it); a stray close tag is dropped.
      const at = stack.map((x) => x.kind).lastIndexOf(kind);
      if (at >= 0) {
        const closed = stack.splice(at).reverse();
        // Kept only for a hint that is the pair's whole content (closed right before `)`).
        const beforeClose = /^\s*\)/.test(text.slice(last));
        for (const h of closed) if (h.parenthesized && !beforeClose) h.parenthesized = false;
        const top = closed[closed.length - 1]!;
        if (at === 0) sharePair(top, beforeClose);
        done.push(...closed);
      }
    }
  }
  emit(text.slice(last));
  // A hint never closed holds no pair of its own.
  for (const h of stack) delete h.paren;
  done.push(...stack.reverse());
  const hints = done
    .sort((a, b) => a.order - b.order)
    .map((h) => ({ kind: h.kind, text: h.text.trim(), ...(h.parenthesized ? { parenthesized: true } : {}), ...(h.paren ? { paren: h.paren } : {}) }))
    .filter((h) => h.text !== '');
  // Hints were often wrapped in parentheses: drop the empty pair left behind, then tidy whitespace.
  goal = goal.replace(/\(\s*\)/g, ' ').replace(/[ \t]+/g, ' ').replace(/\s*\n\s*/g, '\n').trim();
  return { goal, hints };
}

/**
 * A top-level hint opened right after `(` with hints nested in it: when it closes right before `)` and its
 * own text all comes before the nested ones, the outer hint opens the pair and the last nested one (with
 * text) closes it; otherwise neither carries a parenthesis.
 */
function sharePair(top: { text: string; nested: { text: string; paren?: 'open' | 'close' }[]; mixed: boolean; paren?: 'open' | 'close' }, beforeClose: boolean): void {
  const last = [...top.nested].reverse().find((h) => h.text.trim() !== '');
  if (top.paren !== 'open' || !last || top.mixed || !beforeClose || top.text.trim() === '') {
    delete top.paren;
    return;
  }
  last.paren = 'close';
}

/** Scenario text split into what everyone sees and what only the judge sees. */
export function splitScenario(raw: string): { narrative: string; judgeOnly: string } {
  const judge: string[] = [];
  const narrative = unescapeQuotes(raw)
    .replace(/<p\s+viewer\s*=\s*["']environment["']\s*>([\s\S]*?)<\/p>/gi, (_, inner: string) => {
      judge.push(inner.trim());
      return ' ';
    })
    .replace(/[ \t]+/g, ' ')
    .trim();
  return { narrative, judgeOnly: judge.join('\n') };
}
