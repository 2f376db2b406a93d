import path from 'node:path';

/**
 * Rewrites the local paths in a JSON value (run.json) so that a packed run names no folder of the machine
 * that made it: each known absolute path (the run directory, the packed input files, Parley's own folder,
 * the home directory) becomes its name inside the pack, or a placeholder; any other string that is an
 * absolute path keeps only its file name, under `[local]/`. Strings are rewritten, never keys.
 */
export interface PathReplacement {
  /** An absolute path as the machine spelled it. */
  from: string;
  /** What stands for it in the pack (`.`, `inputs/scenarios/S.jsonl`, `[parley]`, `~`). */
  to: string;
}

const ABSOLUTE = /^(\/|[A-Za-z]:[\\/]|\\\\)/;

/** True for a POSIX or Windows absolute path. */
export function isAbsolutePath(s: string): boolean {
  return ABSOLUTE.test(s);
}

/** The string with every known absolute path replaced (longest first, so a file inside a folder wins). */
function replaceKnown(s: string, replacements: readonly PathReplacement[]): string {
  let out = s;
  for (const r of replacements) {
    if (!r.from || r.from === '/') continue;
    if (out === r.from) return r.to;
    // Only at a path boundary: `/tmp/run` must not rewrite `/tmp/run2`.
    out = out.split(r.from + path.sep).join(r.to + '/');
  }
  return out;
}

/** A portable copy of a JSON value. */
export function portablePaths(value: unknown, replacements: readonly PathReplacement[]): unknown {
  const sorted = [...replacements].sort((a, b) => b.from.length - a.from.length);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const s = replaceKnown(v, sorted);
      return isAbsolutePath(s) ? `[local]/${path.basename(s)}` : s;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value);
}

/** Every string in a JSON value that still names an absolute path, or contains one of `roots` (for checks). */
export function absolutePathsIn(value: unknown, roots: readonly string[]): string[] {
  const found: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') {
      if (isAbsolutePath(v) || roots.some((r) => r.length > 1 && v.includes(r))) found.push(v);
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(value);
  return found;
}
