import { execFile, fork } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { cachedBundle, KEEP_EXTERNAL, pruneStaging } from '../../disk/bundle-cache.js';
import { FLATTENED_BARRELS_PLUGIN } from '../../disk/bundle-plugins.js';
import { PACKAGE_ROOT_ENV, packagePath, packageRoot } from '../../disk/package-root.js';
import { CODE_CACHE_KEPT, cutIfItStarts, wholeCacheLine, withCodeCacheOf } from './blob-code-cache.js';
import { clearBuildFailure, noteBuildFailure, recentBuildFailure } from './snapshot-build-failure.js';
import { runtimeEntries, runtimeEntryPoints, snapshotDeferred } from './snapshot-deferred.js';
import { latin1Output } from './latin1-output.js';
import { workerCacheRoot } from './worker-bundle.js';

/**
 * Agent processes started from a V8 start-up snapshot of the agent (agent-node/snapshot-entry.ts): a
 * process begins with the agent's modules evaluated and its schemas built, instead of compiling and
 * running them (bench/start-up.md: ~40 ms less CPU to `ready`, and less memory, per process).
 *
 * Three files, all in the bundle cache (disk/bundle-cache.js: rebuilt when a source they come from changes):
 * - the snapshot's CommonJS bundle (`snapshot.cjs`; what it cannot hold is deferred, snapshot-deferred.ts),
 *   and beside it the blob `node --build-snapshot` makes of it (`agent-<12 hex>.blob`, built once per bundle, build and set of flags),
 *   its digest (`.sha256`) and what its build kept of Node's code cache (`.code-cache`: `cut`, or `whole: <why>`);
 * - the CommonJS bundles of the LLM SDKs the process loads after deserialisation (`openai.cjs`, …).
 *
 * Everything fails soft: a blob that cannot be built, or that fails its first start, or whose bytes no longer
 * match the digest written with it, means agent processes start from the plain bundle as before. A failed
 * build is remembered for a while (snapshot-build-failure.ts), and a cache that cannot be written is found
 * before building, so neither costs every pool start a build.
 */

/** The agent process as a snapshot: `node --snapshot-blob <blob> <flags> <script>`. */
export interface WorkerSnapshot {
  blob: string;
  /** V8 flags the blob was built with: a process from it must be started with exactly these. */
  flags: readonly string[];
  /** The process's script path: the runtime bundle's, which agent-node/snapshot-entry.ts loads from. */
  script: string;
}

/** The package's entry of the snapshot (package.json "imports"), beside `#agent-entry`. */
export const SNAPSHOT_ENTRY_NAME = '#agent-snapshot-entry';

/**
 * How `makeBlob` writes a blob, beyond the bundle it is built from: part of the blob's name, so that a change
 * here builds it again (the bundle's inputs do not hold this file: a cache built before would keep serving
 * its old blob). Bump the number when the build changes otherwise. 2: Node's code cache cut (blob-code-cache.ts).
 */
const BLOB_BUILD = JSON.stringify([2, [...CODE_CACHE_KEPT]]);

/** The blob's file: one per build and set of V8 flags (a blob loads only under the flags it was built with). */
const blobName = (flags: readonly string[]) => `agent-${createHash('sha256').update(JSON.stringify([BLOB_BUILD, flags])).digest('hex').slice(0, 12)}.blob`;
const digestOf = (blob: string) => `${blob}.sha256`;
/** What the build kept of Node's code cache (`cut`, or `whole: <why>`): blob-code-cache.ts. */
export const codeCacheNoteOf = (blob: string) => `${blob}.code-cache`;
const execFileP = promisify(execFile);

const common = { bundle: true, format: 'cjs', platform: 'node', target: 'node20', external: [...KEEP_EXTERNAL], outExtension: { '.js': '.cjs' }, legalComments: 'none' };

const made = new Map<string, Promise<WorkerSnapshot>>();
const checked = new Map<string, string>();

/**
 * The snapshot of the package's agent, built if needed (once per process and cache); rejects when it cannot
 * be (the caller starts plain). `cache`: another cache directory (tests).
 */
export function workerSnapshot(flags: readonly string[] = [], cache = workerCacheRoot()): Promise<WorkerSnapshot> {
  const key = JSON.stringify([cache, flags]);
  let p = made.get(key);
  if (!p) {
    p = buildWorkerSnapshot(cache, flags);
    made.set(key, p);
    p.catch(() => made.delete(key));
  }
  return p;
}

/** How a build is done beyond its cache and flags: tests replace the cut and catch what it says. */
export interface BlobBuildOptions {
  /** Cuts the blob's code cache (withCodeCacheOf). */
  cut?: (whole: Buffer) => Buffer | null;
  /** Where a build that kept the whole code cache says so: the building command's stderr. */
  say?: (line: string) => void;
}

const toStderr = (line: string) => void process.stderr.write(`${line}\n`);

/** workerSnapshot without the per-process memo: checks the cache again (tests damage it). */
export async function buildWorkerSnapshot(cache: string, flags: readonly string[] = [], o: BlobBuildOptions = {}): Promise<WorkerSnapshot> {
  const root = packageRoot();
  const entry = createRequire(packagePath('package.json')).resolve(SNAPSHOT_ENTRY_NAME);
  const script = await cachedBundle({ root, dir: join(cache, 'snapshot-runtime'), entryPoints: runtimeEntryPoints(), main: 'openai.cjs', options: common, plugins: [runtimeEntries, latin1Output] });
  const source = await cachedBundle({
    root,
    dir: join(cache, 'snapshot'),
    entryPoints: { snapshot: entry },
    main: 'snapshot.cjs',
    // No module URL in a CommonJS bundle: the process finds the package through the root it is given (agentEnv).
    // Without whitespace and comments: the source is a string in every process's heap, so each byte of it is read,
    // checksummed and copied at every start from the blob (bench/start-up.md: 667 -> 499 KB, blob -169 KB, one
    // start -1.0 M instructions and -129 page faults). Names stay (no identifier minifying): `.name`s unchanged.
    options: { ...common, minifyWhitespace: true },
    // Barrels imported around (a wrapped barrel initialises every module it lists: FLATTENED_BARRELS_PLUGIN).
    plugins: [snapshotDeferred, latin1Output, FLATTENED_BARRELS_PLUGIN],
  });
  const snapshot = { blob: join(dirname(source), blobName(flags)), flags, script };
  // What killed builds left beside the blob (the bundle cache prunes only its directories' top level).
  pruneStaging(dirname(source));
  if (intact(snapshot.blob)) return snapshot;
  const failed = recentBuildFailure(snapshot.blob);
  if (failed) throw new Error(failed);
  await makeBlob(source, snapshot, root, o);
  return snapshot;
}

/** Where a process that hashed the blob notes what it found, for the processes after it (`intact`). */
const noteOf = (blob: string) => `${blob}.checked`;

/**
 * The blob is there and its bytes are the ones written. Hashing its ~7 MB costs ~20 ms of CPU, and every
 * command that starts a pool asked again: the first process to hash a version of the file notes the digest
 * with the file's identity (device, inode, size, mtime and ctime to the ns; any write or replacement since
 * changes one of them, and no process can set ctime back), and a later one whose blob has the same identity
 * takes the note instead of hashing. Within a process, the answer is kept per version of the file (`memo`:
 * another map in tests, to act as a later process).
 */
export function intact(blob: string, memo: Map<string, string> = checked): boolean {
  try {
    const want = readFileSync(digestOf(blob), 'utf8').trim();
    const st = statSync(blob, { bigint: true });
    const seen = `${want} ${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
    if (memo.get(blob) === seen) return true;
    if (!noted(blob, seen)) {
      if (createHash('sha256').update(readFileSync(blob)).digest('hex') !== want) return false;
      note(blob, seen);
    }
    memo.set(blob, seen);
    return true;
  } catch {
    return false;
  }
}

function noted(blob: string, seen: string): boolean {
  try {
    return readFileSync(noteOf(blob), 'utf8') === seen;
  } catch {
    return false;
  }
}

/** Written aside and renamed (a concurrent reader sees the old note or the new); a cache that cannot be written keeps hashing. */
function note(blob: string, seen: string): void {
  const tmp = join(dirname(blob), `.staging-${process.pid}-${randomBytes(4).toString('hex')}-${basename(noteOf(blob))}`);
  try {
    writeFileSync(tmp, seen);
    renameSync(tmp, noteOf(blob));
  } catch {
    rmSync(tmp, { force: true });
  }
}

/**
 * Builds the blob aside, starts one agent process from it (a blob Node cannot load fails here, not in a
 * run), then writes its digest and renames it in place. The builder's environment holds the package root
 * only: nothing of the user's environment (keys, settings) can end up in the heap every process shares.
 * Aside is a `.staging-` file (its process and a random part: concurrent builds never share one), which the
 * bundle cache's pruning removes once a killed build left it an hour behind.
 */
async function makeBlob(source: string, snapshot: WorkerSnapshot, root: string, o: BlobBuildOptions): Promise<void> {
  const { blob } = snapshot;
  const tmp = join(dirname(blob), `.staging-${process.pid}-${randomBytes(4).toString('hex')}-${basename(blob)}`);
  try {
    // Created before the ~1 s build: a cache that cannot be written (read-only, another user's) fails here.
    closeSync(openSync(tmp, 'wx'));
  } catch (err) {
    throw new Error(`the bundle cache cannot be written (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  try {
    await buildBlob(source, { ...snapshot, blob: tmp }, root);
    // Node's code cache for built-ins no process compiles after deserialisation, cut (blob-code-cache.ts), unless
    // no process starts from the cut blob: then the blob as built, checked by its own first start, and the
    // command says so on stderr (the whole blob works, but every start pays for it) and beside the blob.
    const kept = await cutIfItStarts(tmp, () => firstStart({ ...snapshot, blob: tmp }, root), o.cut ?? withCodeCacheOf);
    if (kept.kept === 'whole') (o.say ?? toStderr)(wholeCacheLine(kept.why));
    writeFileSync(`${tmp}.code-cache`, kept.kept === 'cut' ? 'cut\n' : `whole: ${kept.why}\n`);
    renameSync(`${tmp}.code-cache`, codeCacheNoteOf(blob));
    const digest = createHash('sha256').update(readFileSync(tmp)).digest('hex');
    writeFileSync(`${tmp}.sha256`, digest);
    renameSync(`${tmp}.sha256`, digestOf(blob));
    renameSync(tmp, blob);
    clearBuildFailure(blob);
  } catch (err) {
    noteBuildFailure(blob, err);
    throw err;
  } finally {
    rmSync(tmp, { force: true });
    rmSync(`${tmp}.sha256`, { force: true });
    rmSync(`${tmp}.code-cache`, { force: true });
  }
}

/**
 * Flags of the builder only, not of the processes from the blob: the build's last step reads Node's internal
 * timer lists to empty them (agent-node/snapshot-timers.ts: a list left behind stalls later timers).
 */
export const SNAPSHOT_BUILD_ONLY_FLAGS = ['--expose-internals'] as const;

/** `node --build-snapshot`; its failure says how it ended and the last line it wrote (execFile's says neither). */
async function buildBlob(source: string, snapshot: WorkerSnapshot, root: string): Promise<void> {
  try {
    await execFileP(process.execPath, [...snapshot.flags, ...SNAPSHOT_BUILD_ONLY_FLAGS, '--snapshot-blob', snapshot.blob, '--build-snapshot', source], { cwd: root, env: { [PACKAGE_ROOT_ENV]: root }, timeout: 60_000 });
  } catch (err) {
    const e = err as { code?: unknown; signal?: string | null; killed?: boolean; stderr?: string };
    const last = String(e.stderr ?? '').trim().split('\n').pop() ?? '';
    const how = e.killed ? 'timed out' : e.signal ? `was killed (${e.signal})` : `exited with ${String(e.code)}`;
    throw Object.assign(new Error(`the snapshot builder ${how}${last ? `: ${last.slice(0, 200)}` : ''}`), { code: e.code, signal: e.signal, killed: e.killed });
  }
}

/** One process from the new blob must say `ready`. */
async function firstStart(snapshot: WorkerSnapshot, root: string): Promise<void> {
  const child = fork(snapshot.script, [], { execArgv: snapshotArgs(snapshot), stdio: ['ignore', 'ignore', 'ignore', 'ipc'], env: { [PACKAGE_ROOT_ENV]: root } });
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  try {
    const [first] = await Promise.race([once(child, 'message'), once(child, 'exit').then(([code, signal]) => [{ code, signal }])]);
    if ((first as { type?: unknown }).type !== 'ready') {
      const { code, signal } = first as { code?: number | null; signal?: NodeJS.Signals | null };
      // The signal (our timeout's SIGKILL, or a crash's SIGSEGV) says whether the blob is to blame (snapshot-build-failure.ts).
      throw Object.assign(new Error(`a process from the new start-up snapshot did not start (exit ${code ?? signal ?? 'before ready'})`), { signal });
    }
  } finally {
    clearTimeout(timer);
    child.kill('SIGKILL');
  }
}

/** Node's flags that start a process from the snapshot (with the V8 flags it was built with). */
export const snapshotArgs = (s: WorkerSnapshot): string[] => ['--snapshot-blob', s.blob, ...s.flags];

/** How a pool starts its workers: a script and node's flags; `bundled`: cache files to mark used; `plain`: the fallback. */
export interface Launch {
  path: string;
  execArgv: string[];
  bundled?: string[];
  plain?: Launch;
}

/**
 * `plain` (a bundled agent) started from the snapshot built with `flags` (plain.execArgv then holds none of
 * its own), or `plain` itself when there is no snapshot to be had.
 */
export async function snapshotLaunch(plain: Launch, at: { flags: readonly string[]; cache?: string | undefined }, log?: (line: string) => void): Promise<Launch> {
  try {
    const s = await workerSnapshot(at.flags, at.cache);
    return { path: s.script, execArgv: snapshotArgs(s), bundled: [s.blob, plain.path], plain };
  } catch (err) {
    log?.(`agent processes start without the start-up snapshot (${String((err as Error).message).split('\n')[0]})`);
    return plain;
  }
}
