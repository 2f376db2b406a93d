import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { RunPaths } from '../run-dir/index.js';

/**
 * The runs `parley report LEAKY --against CORRECTED` compares. Two run directories are one pair. Two
 * experiment folders with arms (examples/paper.yaml writes runs/paper/<arm>, paper-corrected.yaml
 * runs/paper-corrected/<arm>) are one pair per arm, matched by name: every arm of LEAKY needs its twin.
 */
export interface LeakPair {
  leaky: string;
  corrected: string;
  /** The arm's name when the pair came from experiment folders. */
  arm?: string;
}

const isRunDir = (dir: string) => existsSync(new RunPaths(dir).episodesJsonl);

/** The arms of an experiment folder: its subfolders that are run directories, by name. */
function armsOf(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && isRunDir(path.join(dir, e.name)))
    .map((e) => e.name)
    .sort();
}

export function leakPairs(leaky: string, corrected: string): { ok: true; pairs: LeakPair[] } | { ok: false; message: string } {
  const arms = isRunDir(leaky) ? [] : armsOf(leaky);
  // A run directory, or a folder that is neither (loading it names what is missing).
  if (!arms.length) return { ok: true, pairs: [{ leaky, corrected }] };
  const missing = arms.filter((a) => !isRunDir(path.join(corrected, a)));
  if (missing.length) return { ok: false, message: `--against ${corrected}: no run for arm${missing.length > 1 ? 's' : ''} ${missing.join(', ')} of ${leaky} (expected ${path.join(corrected, missing[0]!)}/episodes.jsonl)` };
  return { ok: true, pairs: arms.map((arm) => ({ leaky: path.join(leaky, arm), corrected: path.join(corrected, arm), arm })) };
}

/** The folder name of a comparison: `against-<corrected>`, with its parent's name when both runs share a name (arms). */
export function againstSlug(leaky: string, corrected: string): string {
  const [l, c] = [path.resolve(leaky), path.resolve(corrected)];
  const name = path.basename(c) === path.basename(l) ? `${path.basename(path.dirname(c))}-${path.basename(c)}` : path.basename(c);
  return `against-${name.replace(/[^A-Za-z0-9+._-]/g, '_')}`;
}
