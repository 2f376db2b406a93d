import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { packagePath } from '../../../disk/package-root.js';
import type { ChatMessage } from '../../../llm/index.js';

/** The built-in templates, editable in place: `agent-node/prompts/`. */
export const BUILTIN_PROMPT_DIR = packagePath('agent-node', 'prompts');

/** Template names and the placeholders each may use. */
export const TEMPLATE_PLACEHOLDERS = {
  agent: [
    'name', 'seat', 'scenario', 'self', 'goal', 'hints', 'partners', 'partner_goals', 'task', 'task_moves',
    'history', 'turn', 'max_turns', 'turns_left', 'actions', 'action_guide', 'company', 'others', 'partners_heading',
    'private_moves',
  ],
  script: ['scenario', 'characters', 'relationship', 'task_moves', 'max_turns', 'seats', 'actions', 'action_guide', 'private_moves'],
  reformat: ['problem', 'shape'],
  /** `--protocol paper` (agent-paper.md, script-paper.md). */
  agent_paper: ['name', 'context', 'history', 'turn', 'actions', 'action_list', 'private_moves'],
  script_paper: ['context', 'max_turns', 'how_many'],
  /** `--protocol paper`: SOTOPIA's one reformat request, a fresh request to the reformat model (reformat-paper.md, reformat-script-paper.md). */
  reformat_paper: ['reply', 'action_list'],
  reformat_script_paper: ['reply', 'names', 'how_many'],
  /** A seat of a hidden-role game (game.md), under either protocol. */
  game: ['name', 'seat', 'scenario', 'players', 'card', 'goal', 'history', 'phase', 'instruction', 'actions'],
} as const;
export type TemplateName = keyof typeof TEMPLATE_PLACEHOLDERS;

/** A parsed template: the message parts in order, each with its role and raw text. */
export interface Template {
  name: TemplateName;
  file: string;
  parts: Array<{ role: ChatMessage['role']; text: string }>;
}

export type Templates = Record<TemplateName, Template>;

const MARKER = /^<!--\s*(system|user|assistant)\s*-->\s*$/;
const PLACEHOLDER = /\{\{\s*([a-z_]+)\s*\}\}/g;

/**
 * Parses a template file: `<!-- system -->` / `<!-- user -->` lines start messages; other HTML comments
 * are notes for editors and are dropped. Throws naming file, line and placeholder on an unknown
 * placeholder or a file without any message marker, so a bad edit fails before any episode runs.
 */
export function parseTemplate(name: TemplateName, file: string, source: string): Template {
  const withoutNotes = source.replace(/<!--(?!\s*(?:system|user|assistant)\s*-->)[\s\S]*?-->/g, (m) => m.replace(/[^\n]/g, ''));
  const lines = withoutNotes.split('\n');
  const parts: Template['parts'] = [];
  const allowed = TEMPLATE_PLACEHOLDERS[name] as readonly string[];
  lines.forEach((line, i) => {
    const marker = MARKER.exec(line.trim());
    if (marker) {
      parts.push({ role: marker[1] as ChatMessage['role'], text: '' });
      return;
    }
    for (const m of line.matchAll(PLACEHOLDER)) {
      if (!allowed.includes(m[1]!)) {
        throw new Error(`${file}:${i + 1}: unknown placeholder {{${m[1]}}} (allowed: ${allowed.join(', ')})`);
      }
    }
    const current = parts[parts.length - 1];
    if (current) current.text += `${line}\n`;
    else if (line.trim() !== '') throw new Error(`${file}:${i + 1}: text before the first <!-- system --> or <!-- user --> marker`);
  });
  if (parts.length === 0) throw new Error(`${file}: no <!-- system --> or <!-- user --> marker`);
  return { name, file, parts };
}

/** A template's file name: `agent_paper` → `agent-paper.md`. */
export function templateFile(name: TemplateName): string {
  return `${name.replace(/_/g, '-')}.md`;
}

/**
 * Templates already parsed in this process, by file, with the size and modification time they were read
 * at. An agent process builds a policy for every seat it plays, and reading and parsing the nine files
 * each time was ~4% of its CPU in a 1,350-episode paper run; a file edited since is read again.
 */
const parsed = new Map<string, { size: number; mtimeMs: number; template: Template }>();

/** Loads one template: from `promptDir` when it has the file, else the built-in one. */
export function loadTemplate(name: TemplateName, promptDir?: string): Template {
  const custom = promptDir ? join(promptDir, templateFile(name)) : undefined;
  const file = custom && existsSync(custom) ? custom : join(BUILTIN_PROMPT_DIR, templateFile(name));
  const stat = statSync(file);
  const key = `${name}\0${file}`;
  const known = parsed.get(key);
  if (known && known.size === stat.size && known.mtimeMs === stat.mtimeMs) return known.template;
  const template = Object.freeze(parseTemplate(name, file, readFileSync(file, 'utf8')));
  parsed.set(key, { size: stat.size, mtimeMs: stat.mtimeMs, template });
  return template;
}

/** Loads all templates (a `promptDir` may override any subset). */
export function loadTemplates(promptDir?: string): Templates {
  if (promptDir && !existsSync(promptDir)) throw new Error(`prompt directory ${promptDir} does not exist`);
  const names = Object.keys(TEMPLATE_PLACEHOLDERS) as TemplateName[];
  return Object.fromEntries(names.map((n) => [n, loadTemplate(n, promptDir)])) as Templates;
}

/**
 * Fills a template into chat messages. Empty values drop cleanly: runs of blank lines collapse, and a
 * heading left with nothing under it is kept (it still tells the model the section is empty).
 */
export function fillTemplate(template: Template, values: Record<string, string | number>, verbatim: readonly string[] = []): ChatMessage[] {
  const messages: ChatMessage[] = [];
  for (const part of template.parts) {
    const message = fillPart(part, values, verbatim);
    if (message) messages.push(message);
  }
  return messages;
}

/**
 * One part of a template filled as `fillTemplate` fills it; null when it comes out empty (it is then left out).
 * `verbatim` names placeholders whose non-empty values go in after the tidying, exactly as given: the paper
 * history's `Turn #n: ` keeps the blank SOTOPIA's line ends with. An empty one is tidied away as any other.
 */
export function fillPart(part: Template['parts'][number], values: Record<string, string | number>, verbatim: readonly string[] = []): ChatMessage | null {
  const kept = verbatim.filter((k) => String(values[k] ?? '') !== '');
  if (kept.length === 0) {
    const content = tidyEnd(fill(part.text, values)).trimStart();
    return content === '' ? null : { role: part.role, content };
  }
  // A NUL-delimited mark no tidying rule touches stands in for each value until the text is tidied.
  const mark = (i: number) => `\u0000${i}\u0000`;
  let content = tidyEnd(fill(part.text, { ...values, ...Object.fromEntries(kept.map((k, i) => [k, mark(i)])) })).trimStart();
  kept.forEach((k, i) => (content = content.split(mark(i)).join(String(values[k]))));
  return content === '' ? null : { role: part.role, content };
}

const fill = (text: string, values: Record<string, string | number>) => text.replace(PLACEHOLDER, (_, key: string) => String(values[key] ?? ''));
/** A filled part's tidying but its leading trim: blanks before a line break go, runs of blank lines become one. */
const tidyEnd = (text: string) => text.replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').trimEnd();

/**
 * A part whose text up to its first per-turn placeholder stays the same turn after turn (the steady values
 * filled in), split for filling again: `head` tidied once, `middle` (the steady text after the last safe cut)
 * and `rest` (the template from the first per-turn placeholder on) filled and tidied each turn.
 */
export interface SplitPart {
  role: ChatMessage['role'];
  head: string;
  middle: string;
  rest: string;
}

/**
 * Splits `part` for `fillSplit` at a line break of its steady beginning (filled with `values`) that no tidying
 * rule reaches across: the line break's neighbours are neither white space nor line breaks, so no run of blanks
 * before a line break, no run of blank lines and neither end's trim spans it, and tidying each side alone
 * gives the whole's text. Null when the part has no per-turn placeholder or no such line break.
 */
export function splitPart(part: Template['parts'][number], perTurn: ReadonlySet<string>, values: Record<string, string | number>): SplitPart | null {
  let first = -1;
  for (const m of part.text.matchAll(PLACEHOLDER)) {
    if (perTurn.has(m[1]!)) {
      first = m.index!;
      break;
    }
  }
  if (first < 0) return null;
  const steady = fill(part.text.slice(0, first), values);
  for (let cut = steady.length - 1; cut >= 2; cut--) {
    if (steady[cut - 1] === '\n' && !/\s/.test(steady[cut - 2]!) && !/\s/.test(steady[cut]!)) {
      return { role: part.role, head: tidyEnd(steady.slice(0, cut)).trimStart() + '\n', middle: steady.slice(cut), rest: part.text.slice(first) };
    }
  }
  return null;
}

/** What follows `split.head` in `fillPart(part, values)`'s content, for a part split by `splitPart` with the same steady values. */
export function fillSplitRest(split: SplitPart, values: Record<string, string | number>): string {
  return tidyEnd(split.middle + fill(split.rest, values));
}

/** `fillPart(part, values)` for a part split by `splitPart` with the same steady values: the same message. */
export function fillSplit(split: SplitPart, values: Record<string, string | number>): ChatMessage {
  return { role: split.role, content: split.head + fillSplitRest(split, values) };
}

/** The placeholders one part of a template uses, found once per part. */
const partPlaceholders = new WeakMap<Template['parts'][number], string[]>();
export function placeholdersOf(part: Template['parts'][number]): string[] {
  let names = partPlaceholders.get(part);
  if (!names) partPlaceholders.set(part, (names = [...part.text.matchAll(PLACEHOLDER)].map((m) => m[1]!)));
  return names;
}
