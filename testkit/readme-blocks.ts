/**
 * The shell blocks of a Markdown file, as the README test executes them (test/readme/): every fenced
 * block whose info string is `bash`, `sh` or `shell`, split into commands, with what the file says about
 * each command in plain sight:
 * - a trailing comment `# fails: TEXT` marks a command meant to fail: it must exit non-zero and print TEXT;
 * - HTML comments right above the fence (`<!-- readme-test: … -->`, invisible once rendered) say how the
 *   test treats a command it cannot run as written, each with its reason (a SUBSTRING ending in `$` must
 *   end the command):
 *     `skip "SUBSTRING": REASON`  — commands containing SUBSTRING are not run (reported with the reason);
 *     `skip: REASON`              — the whole block is not run;
 *     `needs DATA`                — the block runs only where reference data is (`sotopia`: SOTOPIA's
 *       profiles, `cocoa`: cocoa's files; as the data tests, it is skipped with the reason elsewhere);
 *     `background "SUBSTRING" until "TEXT"` — a server: started, waited on until it prints TEXT, and the
 *       block's next commands run beside it; stopped at the end of the block (SIGINT, as Ctrl-C), or, when
 *       it ended before, it must have exited 0.
 */

export interface ShellCommand {
  /** 1-based line of the command's first line in the file. */
  line: number;
  /** The command as written (continuation lines joined with their backslashes). */
  source: string;
  /** What the shell runs: the command without its trailing comment. */
  code: string;
  /** The trailing comment's text ('' when none). */
  comment: string;
  /** Set when the comment says the command is meant to fail: the text its output must contain. */
  fails?: string;
}

export type Directive =
  | { kind: 'skip'; match?: string; reason: string }
  | { kind: 'needs'; data: string }
  | { kind: 'background'; match: string; until: string };

export interface ShellBlock {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** Index of the block in its file, from 1. */
  index: number;
  commands: ShellCommand[];
  directives: Directive[];
}

const SHELL_LANGS = new Set(['bash', 'sh', 'shell']);
const DIRECTIVE = /^<!--\s*readme-test:\s*(.*?)\s*-->$/;

/** Parses one `readme-test:` directive; throws with the text when it has none of the known forms. */
export function parseDirective(text: string): Directive {
  let m = /^skip\s+"([^"]+)"\s*:\s*(.+)$/.exec(text);
  if (m) return { kind: 'skip', match: m[1]!, reason: m[2]! };
  m = /^skip\s*:\s*(.+)$/.exec(text);
  if (m) return { kind: 'skip', reason: m[1]! };
  m = /^needs\s+(sotopia|cocoa)$/.exec(text);
  if (m) return { kind: 'needs', data: m[1]! };
  m = /^background\s+"([^"]+)"\s+until\s+"([^"]+)"$/.exec(text);
  if (m) return { kind: 'background', match: m[1]!, until: m[2]! };
  throw new Error(`unknown readme-test directive: ${text}`);
}

/**
 * Splits a shell line into code and trailing comment: the first `#` at the start or after whitespace,
 * outside quotes, begins the comment.
 */
export function splitComment(line: string): { code: string; comment: string } {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"') i++;
      continue;
    }
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return { code: line.slice(0, i).trimEnd(), comment: line.slice(i + 1).trim() };
  }
  return { code: line.trimEnd(), comment: '' };
}

function commandsOf(lines: string[], firstLine: number): ShellCommand[] {
  const out: ShellCommand[] = [];
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    const parts: string[] = [];
    const comments: string[] = [];
    // A line ending in a backslash (before any comment) continues on the next one.
    for (;;) {
      const { code, comment } = splitComment(lines[i]!);
      if (comment) comments.push(comment);
      if (code.endsWith('\\') && i + 1 < lines.length) {
        parts.push(code.slice(0, -1).trimEnd());
        i++;
        continue;
      }
      parts.push(code);
      break;
    }
    const code = parts.map((p) => p.trim()).join(' ').trim();
    if (!code) continue;
    const comment = comments.join(' ');
    const fails = /^fails:\s*(.+)$/.exec(comment)?.[1]?.replace(/^"(.*)"$/, '$1');
    out.push({ line: firstLine + start, source: lines.slice(start, i + 1).join('\n'), code, comment, ...(fails !== undefined && { fails }) });
  }
  return out;
}

/** Every shell block of `text` (the content of `file`), in order. */
export function shellBlocks(file: string, text: string): ShellBlock[] {
  const lines = text.split('\n');
  const blocks: ShellBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[2]!;
    let end = i + 1;
    while (end < lines.length && !lines[end]!.trim().startsWith(fence)) end++;
    if (SHELL_LANGS.has(open[3]!)) {
      const directives: Directive[] = [];
      for (let j = i - 1; j >= 0; j--) {
        const d = DIRECTIVE.exec(lines[j]!.trim());
        if (!d) break;
        directives.unshift(parseDirective(d[1]!));
      }
      blocks.push({ file, line: i + 1, index: blocks.length + 1, commands: commandsOf(lines.slice(i + 1, end), i + 2), directives });
    }
    i = end;
  }
  return blocks;
}

/** The directive that applies to one command of a block, if any. */
export function directiveFor(block: ShellBlock, command: ShellCommand): Exclude<Directive, { kind: 'needs' }> | undefined {
  for (const d of block.directives) {
    if (d.kind === 'needs') continue;
    if (d.kind === 'skip' && d.match === undefined) return d;
    if (d.match !== undefined && matches(command.code, d.match)) return d;
  }
  return undefined;
}

/** Whether a directive's SUBSTRING names this command (`…$`: at its end). */
export function matches(code: string, match: string): boolean {
  return match.endsWith('$') ? code.endsWith(match.slice(0, -1)) : code.includes(match);
}

/** The reference data a block needs, if any. */
export const needsOf = (block: ShellBlock) => block.directives.flatMap((d) => (d.kind === 'needs' ? [d.data] : []));
