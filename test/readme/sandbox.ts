import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { sotopiaSources } from '../../scenarios/fetch/sotopia-sources.js';
import { SOTOPIA_FILES } from '../../scenarios/import/sotopia.js';
import { REPO, tempDir } from '../../testkit/processes.js';

/**
 * Where the README's commands run: a fresh directory that looks like a clone beside `../shared` — every
 * top-level entry of the repository linked in (examples/, prompts, package.json, node_modules …) except
 * `runs/` and git's files, so what the commands write lands in the sandbox, never in the repository —
 * with `../shared` linked to the repository's when the machine has it.
 *
 * `npx parley …` runs `node bin/parley.js …` directly, `npx tsx …` the installed tsx: what npx resolves
 * to in a clone, without npm's ~0.7 s of CPU per command (the README has ~80). Any other `npx` fails.
 */
export interface Sandbox {
  root: string;
  /** The clone-like working directory the commands run in. */
  cwd: string;
  /** Directories outside `cwd`: the shell state between commands, caches, home. */
  state: string;
  /** The entries the sandbox linked in (not written by a command). */
  linked: Set<string>;
  /** PATH with the npx shim first. */
  path: string;
  remove(): void;
}

export function makeSandbox(): Sandbox {
  const tmp = tempDir('readme');
  const cwd = join(tmp.path, 'parley');
  const state = join(tmp.path, 'state');
  const bin = join(tmp.path, 'bin');
  for (const d of [cwd, state, bin, join(state, 'home'), join(state, 'cache')]) mkdirSync(d, { recursive: true });
  const linked = linkedEntries();
  for (const entry of linked) symlinkSync(join(REPO, entry), join(cwd, entry));
  const shared = resolve(REPO, '../shared');
  if (existsSync(shared)) symlinkSync(shared, join(tmp.path, 'shared'));
  const npx = [
    '#!/bin/sh',
    '# The README test\'s npx: `npx parley` and `npx tsx` as a clone resolves them (see test/readme/sandbox.ts).',
    'case "$1" in',
    `  parley) shift; exec "${process.execPath}" "${join(REPO, 'bin', 'parley.js')}" "$@" ;;`,
    `  tsx) shift; exec "${join(REPO, 'node_modules', '.bin', 'tsx')}" "$@" ;;`,
    '  *) echo "README test: npx $1 is not available here (only parley and tsx)" >&2; exit 127 ;;',
    'esac',
    '',
  ].join('\n');
  writeFileSync(join(bin, 'npx'), npx, { mode: 0o755 });
  return { root: tmp.path, cwd, state, linked, path: `${bin}:${process.env.PATH ?? ''}`, remove: tmp.remove };
}

/** The top-level entries of the repository a sandbox links in: all but `runs/` and what git and coverage keep. */
export function linkedEntries(): Set<string> {
  return new Set(readdirSync(REPO).filter((e) => e !== 'runs' && e !== '.git' && e !== 'coverage'));
}

/**
 * What the commands left in the sandbox that the repository's .gitignore does not cover (top-level
 * entries; a directory is checked as `name/`): run in a clone, these would show up as untracked files.
 */
export function untrackedLeftovers(sandbox: Sandbox): string[] {
  const written = readdirSync(sandbox.cwd, { withFileTypes: true })
    .filter((e) => !sandbox.linked.has(e.name))
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.name));
  if (!written.length) return [];
  const r = spawnSync('git', ['-C', REPO, 'check-ignore', '--no-index', '--stdin'], { input: written.join('\n') + '\n', encoding: 'utf8' });
  const ignored = new Set(r.stdout.split('\n').filter(Boolean));
  return written.filter((w) => !ignored.has(w));
}

/**
 * A SOTOPIA download in the sandbox's cache, as `parley scenarios fetch sotopia` leaves it, made from
 * `dir` (the machine's copy of the very files): the README's fetch then runs as written and offline
 * ("using the cached download"), verifying every record and count. The download itself is tested against
 * a local server in test/scenarios-fetch.test.ts.
 */
export function seedSotopiaCache(cache: string, dir: string): void {
  const sources = sotopiaSources();
  const key = createHash('sha256').update(JSON.stringify(sources)).digest('hex').slice(0, 16);
  const entry = join(cache, 'sotopia', key);
  mkdirSync(entry, { recursive: true });
  for (const name of Object.values(SOTOPIA_FILES)) symlinkSync(join(dir, name), join(entry, name));
  writeFileSync(join(entry, 'SOURCES.json'), `${JSON.stringify({ fetchedAt: new Date().toISOString(), sources }, null, 2)}\n`);
}
