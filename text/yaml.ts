import { isNode, LineCounter, parseDocument, visit, type Document } from 'yaml';
import type * as z from 'zod';

/**
 * YAML files a user edits (experiment files, rubrics) are validated with zod, and a mistake is reported
 * as one line naming the file, the line and the key: `file.yaml:7: dimensions.1.range: …`. Pure: the
 * caller reads the file; this turns text into validated data or that one line.
 */
export type YamlResult<T> = { ok: true; data: T } | { ok: false; message: string; line: number | null; path: string };

/** Parses `text` as YAML and validates it with `schema`; `file` is only used in the message. */
export function parseYamlWith<S extends z.ZodType>(schema: S, text: string, file: string): YamlResult<z.output<S>> {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  if (doc.errors.length) {
    const e = doc.errors[0]!;
    const line = e.linePos?.[0]?.line ?? (e.pos ? lineCounter.linePos(e.pos[0]).line : undefined) ?? null;
    return { ok: false, line, path: '', message: `${file}${line ? `:${line}` : ''}: invalid YAML (${e.message.split('\n')[0]})` };
  }
  let data: unknown;
  try {
    // Aliases are expanded here; an alias bomb (aliases of aliases, billions of nodes) is stopped by the
    // library's alias budget, and reported as any YAML mistake: the file, the line of its first alias.
    data = doc.toJS() ?? {};
  } catch (err) {
    let line: number | null = null;
    visit(doc, { Alias: (_key, node) => ((line = node.range ? lineCounter.linePos(node.range[0]).line : null), visit.BREAK) });
    return { ok: false, line, path: '', message: `${file}${line ? `:${line}` : ''}: invalid YAML (${(err as Error).message.split('\n')[0]})` };
  }
  const parsed = schema.safeParse(data);
  if (parsed.success) return { ok: true, data: parsed.data };
  const issue = specificIssue(parsed.error.issues[0]!);
  const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]!] : issue.path;
  const line = lineOfPath(doc, lineCounter, path);
  const field = path.map(String).join('.') || '(file)';
  const what = issue.code === 'unrecognized_keys' ? `unknown key '${issue.keys[0]}'` : issue.message;
  return { ok: false, line, path: field, message: `${file}${line ? `:${line}` : ''}: ${field}: ${what}` };
}

/**
 * The issue to report: for a union (a spec string or a policy object; a mode list or a comma string),
 * the branch that got furthest — the one not rejected for its type at the top — with its full path.
 */
export function specificIssue(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  if (issue.code !== 'invalid_union' || !issue.errors.length) return issue;
  const candidates = issue.errors.flat().filter((i) => !(i.code === 'invalid_type' && i.path.length === 0));
  const best = candidates.sort((a, b) => b.path.length - a.path.length)[0];
  if (!best) return issue;
  return specificIssue({ ...best, path: [...issue.path, ...best.path] } as z.core.$ZodIssue);
}

/** 1-based line of the deepest node of `path` present in the document. */
export function lineOfPath(doc: Document, lc: LineCounter, path: readonly PropertyKey[]): number | null {
  for (let n = path.length; n >= 0; n--) {
    const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n) as unknown[], true);
    if (isNode(node) && node.range) return lc.linePos(node.range[0]).line;
  }
  return null;
}
