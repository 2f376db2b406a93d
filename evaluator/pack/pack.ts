import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, copyFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { create } from 'tar';
import { packageRoot } from '../../disk/package-root.js';
import { packageVersion } from '../../disk/package-version.js';
import { loadRunDir } from '../run-dir.js';
import type { RecordedRunConfig } from '../../run-dir/index.js';
import { buildCard, cardMarkdown } from '../report/card.js';
import { writeReport } from '../report/report.js';
import { MANIFEST_FILE, type Manifest } from './manifest.js';
import { portablePaths, type PathReplacement } from './portable-paths.js';

/**
 * `parley pack`: a run as a paper's supplement, one `.tar.gz` holding one folder named after the run:
 * the run directory's files (records, ledgers, cassettes, verdicts, exports), a fresh report and its
 * simulation card (card.md), the input files named (`inputs/`: scenario file, rubric files, experiment
 * file) and `manifest.json` with the SHA-256 of every other file and Parley's version. Paths inside are
 * relative; run.json is rewritten so that it names no folder of this machine (portable-paths.ts). The
 * run directory is only read.
 */
export interface PackOptions {
  /** The run directory. */
  dir: string;
  /** The .tar.gz to write (written to a temp file first, then renamed). */
  out: string;
  /** Input files to include besides those run.json names: `kind` is the folder under inputs/. */
  inputs: { kind: 'scenarios' | 'rubrics' | 'experiment'; file: string }[];
  seed?: number;
}

export interface PackResult {
  out: string;
  folder: string;
  files: number;
  bytes: number;
  /** Files of the run directory left out, with why (the lock, links, reports of filters). */
  leftOut: string[];
  /** Input files run.json names that could not be found here (named in the pack's run.json as they were). */
  missingInputs: string[];
}

/** Files of a run directory that are not part of the run as shared: regenerated, or local state. */
const LEFT_OUT = new Set(['.parley-run.lock', 'report.md', 'report.html', 'charts', 'transcripts', 'reports', 'card.md', MANIFEST_FILE, 'inputs']);

/** Copies the run directory's regular files (no links: a run directory is untrusted and a link could name any file). */
function copyRunFiles(from: string, to: string, rel: string, leftOut: string[]): void {
  mkdirSync(path.join(to, rel), { recursive: true });
  for (const entry of readdirSync(path.join(from, rel), { withFileTypes: true })) {
    const name = path.join(rel, entry.name);
    if (!rel && LEFT_OUT.has(entry.name)) continue;
    if (entry.name.includes('.tmp-') || entry.name.endsWith('.tmp')) continue;
    if (entry.isSymbolicLink()) leftOut.push(`${name} (a link)`);
    else if (entry.isDirectory()) copyRunFiles(from, to, name, leftOut);
    else if (entry.isFile()) copyFileSync(path.join(from, name), path.join(to, name));
    else leftOut.push(`${name} (not a regular file)`);
  }
}

/** The input files run.json names (scenario file, default rubric), where they exist here. */
function namedInputs(config: RecordedRunConfig | undefined): { kind: 'scenarios' | 'rubrics'; file: string }[] {
  const out: { kind: 'scenarios' | 'rubrics'; file: string }[] = [];
  if (config && config.scenarios !== 'builtin') out.push({ kind: 'scenarios', file: config.scenarios });
  if (config?.rubric && /\.(ya?ml|json)$/i.test(config.rubric)) out.push({ kind: 'rubrics', file: config.rubric });
  return out;
}

/** Every file under `root`, as sorted relative POSIX paths. */
function listFiles(root: string, rel = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(root, rel), { withFileTypes: true })) {
    const name = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...listFiles(root, name));
    else out.push(name);
  }
  return out.sort();
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** Packs a run directory. Throws with a one-line message when the run cannot be read. */
export async function packRun(opts: PackOptions): Promise<PackResult> {
  const dir = path.resolve(opts.dir);
  const loaded = await loadRunDir(dir);
  if (!loaded.ok) throw new Error(loaded.error.message);
  const folder = path.basename(dir);
  const stage = mkdtempSync(path.join(os.tmpdir(), 'parley-pack-'));
  try {
    const root = path.join(stage, folder);
    const leftOut: string[] = [];
    copyRunFiles(dir, root, '', leftOut);
    const rawRunJson = existsSync(path.join(dir, 'run.json')) ? (JSON.parse(readFileSync(path.join(dir, 'run.json'), 'utf8')) as Record<string, unknown>) : null;
    // Inputs: each under inputs/<kind>/<file name>, and run.json's mention of it rewritten to that name.
    const replacements: PathReplacement[] = [{ from: dir, to: '.' }];
    const missingInputs: string[] = [];
    for (const input of [...namedInputs(loaded.run.run?.config), ...opts.inputs]) {
      const abs = path.resolve(input.file);
      if (!existsSync(abs) || !statSync(abs).isFile() || lstatSync(abs).isSymbolicLink()) {
        missingInputs.push(input.file);
        continue;
      }
      const rel = `inputs/${input.kind}/${path.basename(abs)}`;
      mkdirSync(path.join(root, 'inputs', input.kind), { recursive: true });
      copyFileSync(abs, path.join(root, rel));
      replacements.push({ from: abs, to: rel }, ...(input.file !== abs ? [{ from: input.file, to: rel }] : []));
    }
    replacements.push({ from: packageRoot(), to: '[parley]' }, { from: os.homedir(), to: '~' }, { from: process.cwd(), to: '[cwd]' });
    if (rawRunJson) writeFileSync(path.join(root, 'run.json'), JSON.stringify(portablePaths(rawRunJson, replacements), null, 2) + '\n');
    // The report and card, written from the staged copy: `parley report` on the unpacked folder writes the same.
    const staged = await loadRunDir(root);
    if (!staged.ok) throw new Error(staged.error.message);
    await writeReport([staged.run], { outDir: root, seed: opts.seed ?? 1 });
    writeFileSync(path.join(root, 'card.md'), cardMarkdown(buildCard([staged.run])).join('\n') + '\n');
    const files = listFiles(root);
    const manifest: Manifest = {
      v: 1,
      parley: packageVersion(),
      run: staged.run.run?.runId ?? folder,
      folder,
      files: files.map((f) => ({ path: f, sha256: sha256(path.join(root, f)), bytes: statSync(path.join(root, f)).size })),
    };
    writeFileSync(path.join(root, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
    const out = path.resolve(opts.out);
    mkdirSync(path.dirname(out), { recursive: true });
    const tmp = `${out}.tmp-${process.pid}`;
    try {
      // portable: no owner, group or local user names in the headers.
      await create({ gzip: true, file: tmp, cwd: stage, portable: true }, [folder]);
      renameSync(tmp, out);
    } finally {
      rmSync(tmp, { force: true });
    }
    return { out, folder, files: files.length + 1, bytes: statSync(out).size, leftOut, missingInputs };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}
