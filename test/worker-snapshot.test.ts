import { execFileSync, fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { chmodSync, cpSync, existsSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PACKAGE_ROOT as CLI_PACKAGE_ROOT } from '../bin/cli-bundle.mjs';
import { PACKAGE_ROOT_ENV } from '../disk/package-root.js';
import { RunConfig } from '../orchestrator/run-config.js';
import { runExperiment } from '../orchestrator/run/driver.js';
import { agentEnv } from '../orchestrator/supervisor/agent-entry.js';
import { CODE_CACHE_KEPT, findCodeCache } from '../orchestrator/supervisor/blob-code-cache.js';
import { BOT_PROCESS_NODE_FLAGS } from '../orchestrator/supervisor/bot-process-flags.js';
import { ONE_SEAT_PROCESS_NODE_FLAGS } from '../orchestrator/supervisor/one-seat-process-flags.js';
import { bundleInputs, KEEP_EXTERNAL } from '../disk/bundle-cache.js';
import { RUNTIME_GLOBAL, snapshotDeferred } from '../orchestrator/supervisor/snapshot-deferred.js';
import { WorkerPool } from '../orchestrator/supervisor/worker-pool.js';
import { buildWorkerSnapshot, snapshotArgs, workerSnapshot, type WorkerSnapshot } from '../orchestrator/supervisor/worker-snapshot.js';
import type { WorkerToParent } from '../protocol/index.js';
import { startFakeLlmServer, type FakeLlmServer } from '../testkit/fake-llm-server.js';
import { REPO, tempDir } from './helpers/processes.js';

/**
 * Agent processes start from a V8 start-up snapshot of the agent (orchestrator/supervisor/worker-snapshot.ts,
 * bench/start-up.md), on real processes: which pools use it (read from /proc/<pid>/cmdline), that its seats
 * play, that the blob holds nothing of the environment it was built from, and that a damaged blob is
 * rebuilt rather than used.
 */
const SECRET_VAR = 'PARLEY_SNAPSHOT_TEST_SECRET';
const SECRET = `sk-snapshot-${process.pid}-never-in-a-blob`;

const cmdline = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');

const canWrite = (dir: string): boolean => {
  try {
    writeFileSync(join(dir, '.probe'), '');
    rmSync(join(dir, '.probe'));
    return true;
  } catch {
    return false;
  }
};

/** Makes `dir` unwritable (mode 555; as root, which ignores modes, immutable through chattr): its undo, or null. */
function unwritable(dir: string): (() => void) | null {
  chmodSync(dir, 0o555);
  const undo = [() => chmodSync(dir, 0o755)];
  if (canWrite(dir)) {
    try {
      execFileSync('chattr', ['+i', dir], { stdio: 'ignore' });
      undo.unshift(() => execFileSync('chattr', ['-i', dir], { stdio: 'ignore' }));
    } catch {
      // No chattr, or not permitted: the caller skips.
    }
  }
  const all = () => undo.forEach((f) => f());
  if (canWrite(dir)) {
    all();
    return null;
  }
  return all;
}

/** Starts one process from the snapshot, warms an `openai:` policy, returns its messages. */
async function startFrom(s: WorkerSnapshot, baseURL: string): Promise<WorkerToParent[]> {
  const child = fork(s.script, [], { execArgv: snapshotArgs(s), stdio: ['ignore', 'ignore', 'inherit', 'ipc'], env: agentEnv({ ...process.env, PARLEY_SNAPSHOT_TEST_KEY: 'k' }) });
  const got: WorkerToParent[] = [];
  try {
    for (;;) {
      const [msg] = (await once(child, 'message')) as [WorkerToParent];
      got.push(msg);
      if (msg.type === 'ready') child.send({ type: 'warm', policies: [{ spec: 'openai:m', baseURL, apiKeyEnv: 'PARLEY_SNAPSHOT_TEST_KEY', params: {} }] });
      if (msg.type === 'warmed') return got;
    }
  } finally {
    child.kill('SIGKILL');
  }
}

/**
 * A cache directory of its own holding what a built cache holds: copies of the package's cache (built there
 * if it is not yet), the bundles and, with `blobs`, the blobs of the default and the bot flags with their
 * digests. A fresh cache costs ~3 CPU-s of esbuild for its two bundles and ~0.6 for each blob; a copy a few
 * ms. For the tests about what a pool does with a blob, or about the blob's build (the bundles' builds are
 * the package cache's, disk/bundle-cache.js, tested with it).
 */
async function copyOfBuiltCache(dest: string, blobs: boolean): Promise<string> {
  const [plain] = await Promise.all([workerSnapshot(), workerSnapshot(BOT_PROCESS_NODE_FLAGS)]);
  for (const bundleDir of [dirname(plain.blob), dirname(plain.script)]) {
    const from = dirname(bundleDir);
    const to = join(dest, basename(from));
    cpSync(bundleDir, join(to, basename(bundleDir)), { recursive: true, filter: (f) => !basename(f).startsWith('.staging-') && (blobs || !/\.blob(\.sha256)?$/.test(f)) });
    // The manifest names the bundle copied (another build may have moved the package's on since).
    const manifest = JSON.parse(readFileSync(join(from, 'current.json'), 'utf8')) as { bundle: string };
    writeFileSync(join(to, 'current.json'), JSON.stringify({ ...manifest, bundle: basename(bundleDir) }));
  }
  return dest;
}

describe('agent processes from the start-up snapshot', () => {
  const tmp = tempDir('worker-snapshot');
  let server: FakeLlmServer;
  const cleanups: Array<() => unknown> = [];
  beforeAll(async () => {
    server = await startFakeLlmServer();
  });
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  afterAll(async () => {
    await server.close();
    tmp.remove();
  });

  it('a run of a bot and an LLM seat plays from the snapshot', async () => {
    let lines: string[][] = [];
    const agents = [{ spec: 'bot:chatter', params: {} }, { spec: 'openai:gpt-3.5-turbo', baseURL: server.openaiBaseURL, apiKeyEnv: 'PARLEY_SNAPSHOT_TEST_KEY', params: {} }];
    const config = RunConfig.parse({ scenarios: 'builtin', modes: ['agents'], out: join(tmp.path, 'run'), limit: 1, maxTurns: 4, agents });
    process.env.PARLEY_SNAPSHOT_TEST_KEY = 'k';
    cleanups.push(() => delete process.env.PARLEY_SNAPSHOT_TEST_KEY);
    const result = await runExperiment(config, { log: () => {}, hosting: 'local' }, { progressIntervalMs: 3_600_000, poolStarted: (pool) => (lines = pool.pids.map(cmdline)) });
    expect(result.ran.map((r) => r.status)).toEqual(['ok']);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toContain('--snapshot-blob');
  });

  it('the snapshot bundle and its runtime files hold no character beyond Latin-1 (V8 would keep a whole script two bytes a character)', async () => {
    const snapshot = await workerSnapshot();
    const files = [join(dirname(snapshot.blob), 'snapshot.cjs'), ...readdirSync(dirname(snapshot.script)).filter((f) => f.endsWith('.cjs')).map((f) => join(dirname(snapshot.script), f))];
    expect(files.length).toBeGreaterThan(1);
    for (const file of files) {
      const beyond = readFileSync(file, 'utf8').match(/[^\x00-\xff]/g) ?? [];
      expect(beyond, file).toEqual([]);
    }
  });

  it("the snapshot bundle reaches protocol/'s modules around its barrel: no run record's or evaluation's schemas in an agent's heap", async () => {
    // Through protocol/index.ts every module it lists was initialised (a wrapped barrel runs them all): ~290 KB
    // of blob and ~11 M instructions more at every agent process's start, for schemas a seat never decodes.
    const snapshot = await workerSnapshot();
    const bundle = readFileSync(join(dirname(snapshot.blob), 'snapshot.cjs'), 'utf8');
    // The bundle has no comments (whitespace minified), so modules are told by what they define: a wrapped barrel
    // by its path (esbuild's __esm key), a schema by the assignment of its (kept) name.
    const assigns = (name: string) => new RegExp(`\\b${name}\\d* ?=[^=>]`);
    expect(bundle).toMatch(assigns('SeatWelcome'));
    expect(bundle).not.toContain('"protocol/index.ts"');
    for (const name of ['TurnRecord', 'SeatRecord', 'DimensionScore', 'EvaluationError']) expect(bundle).not.toMatch(assigns(name));
    // What decides the bundle's text without esbuild loading it is tracked, so an edit to it rebuilds: the barrels
    // (the flattening reads them), the plugins' own files (their keys are bumped by hand, or hold data only).
    const inputs = bundleInputs(dirname(dirname(snapshot.blob))) ?? [];
    for (const file of ['protocol/index.ts', 'disk/bundle-plugins.js', 'orchestrator/supervisor/latin1-output.ts', 'orchestrator/supervisor/snapshot-deferred.ts']) expect(inputs).toContain(file);
  });

  it('bot-only and one-seat pools start from blobs of their own, built with the flags they run under (a blob loads only under its build flags)', async () => {
    const lines: string[][] = [];
    for (const opts of [{ botsOnly: true }, { botsOnly: false }, { botsOnly: false, seatsPerWorker: 4 }]) {
      const pool = new WorkerPool({ size: 1, ...opts });
      cleanups.push(() => pool.close());
      await pool.start();
      lines.push(cmdline(pool.readyPids[0]!));
    }
    const [bots, oneSeat, multiplexed] = lines as [string[], string[], string[]];
    const blobOf = (line: string[]) => line[line.indexOf('--snapshot-blob') + 1];
    expect(bots).toEqual(expect.arrayContaining(['--snapshot-blob', ...BOT_PROCESS_NODE_FLAGS]));
    expect(oneSeat).toEqual(expect.arrayContaining(['--snapshot-blob', ...ONE_SEAT_PROCESS_NODE_FLAGS]));
    for (const flag of BOT_PROCESS_NODE_FLAGS) expect(oneSeat).not.toContain(flag);
    for (const flag of [...BOT_PROCESS_NODE_FLAGS, ...ONE_SEAT_PROCESS_NODE_FLAGS]) expect(multiplexed).not.toContain(flag);
    for (const line of lines) expect(blobOf(line)).toMatch(/agent-[0-9a-f]{12}\.blob$/);
    expect(new Set(lines.map(blobOf)).size).toBe(3);
  });

  it('a pool under the package root bin/parley.js declares (a trailing slash) starts from the snapshot: every CLI run', async () => {
    expect(CLI_PACKAGE_ROOT.endsWith('/')).toBe(true);
    const before = process.env[PACKAGE_ROOT_ENV];
    process.env[PACKAGE_ROOT_ENV] = CLI_PACKAGE_ROOT;
    cleanups.push(() => (before === undefined ? delete process.env[PACKAGE_ROOT_ENV] : (process.env[PACKAGE_ROOT_ENV] = before)));
    const pool = new WorkerPool({ size: 1, botsOnly: true });
    cleanups.push(() => pool.close());
    await pool.start();
    expect(cmdline(pool.readyPids[0]!)).toEqual(expect.arrayContaining(['--snapshot-blob', ...BOT_PROCESS_NODE_FLAGS]));
  });

  it('a package kept outside the bundles cannot be imported by the snapshot unnoticed: its build fails (the pool then starts plain)', async () => {
    const { build } = await import('esbuild');
    const bundle = (code: string) =>
      build({ stdin: { contents: code, resolveDir: REPO }, bundle: true, write: false, format: 'cjs', platform: 'node', external: [...KEEP_EXTERNAL], logLevel: 'silent', plugins: [snapshotDeferred.plugin] });
    await expect(bundle("import('bullmq');")).rejects.toThrow(/bullmq is kept outside the bundles and not in RUNTIME_PACKAGES/);
    // The shared rate limit's client is served from its runtime bundle (it hung every --rpm request before).
    const served = await bundle("import('ioredis');");
    expect(served.outputFiles[0]!.text).toContain(`${RUNTIME_GLOBAL}("ioredis")`);
    expect(served.outputFiles[0]!.text).not.toContain('require("ioredis")');
  });

  it('with node flags from the environment (PARLEY_WORKER_NODE_ARGS) a pool starts from the plain bundle', async () => {
    process.env.PARLEY_WORKER_NODE_ARGS = '--stack-size=900';
    cleanups.push(() => delete process.env.PARLEY_WORKER_NODE_ARGS);
    const pool = new WorkerPool({ size: 1 });
    cleanups.push(() => pool.close());
    await pool.start();
    const line = cmdline(pool.readyPids[0]!);
    expect(line).not.toContain('--snapshot-blob');
    expect(line).toContain('--stack-size=900');
    expect(line.some((a) => a.endsWith('worker.mjs'))).toBe(true);
  });

  it('is built from code alone: nothing of the environment it was built in is in the blob, and an LLM policy warms in it', async () => {
    process.env[SECRET_VAR] = SECRET;
    cleanups.push(() => delete process.env[SECRET_VAR]);
    // The bundles copied, the blob built here, with the secret in the environment.
    const cache = await copyOfBuiltCache(join(tmp.path, 'cache'), false);
    const s = await buildWorkerSnapshot(cache);
    expect(s.blob.startsWith(cache)).toBe(true);
    const blob = readFileSync(s.blob);
    expect(blob.length).toBeGreaterThan(1_000_000);
    expect(blob.includes(SECRET)).toBe(false);
    expect(blob.includes(Buffer.from(SECRET, 'utf16le'))).toBe(false);
    // Node's code cache only for the built-ins a process compiles after deserialisation (blob-code-cache.ts).
    const cached = findCodeCache(blob)!.entries.map((e) => e.id);
    expect(cached).toEqual(expect.arrayContaining(['child_process', 'internal/child_process', 'tls', 'https']));
    expect(cached.filter((id) => !CODE_CACHE_KEPT.has(id))).toEqual([]);
    expect(await startFrom(s, server.openaiBaseURL)).toEqual([{ type: 'ready' }, { type: 'warmed' }]);
  });

  it('a damaged blob is built again, never started, by each of two pool starts at once', async () => {
    const cache = join(tmp.path, 'cache');
    const first = await buildWorkerSnapshot(cache);
    const bytes = readFileSync(first.blob);
    writeFileSync(first.blob, bytes.subarray(0, bytes.length >> 1));
    // Two pool starts at once find it damaged: each builds its own blob aside, and both succeed. (Two race as
    // four did, through the same staging and rename; each build is ~1-1.5 s of CPU here. A digest that does not
    // match its blob is found damaged by the same check, intact(): worker-snapshot-note.test.ts.)
    const agains = await Promise.all([1, 2].map(() => buildWorkerSnapshot(cache)));
    const again = agains[0]!;
    expect(new Set(agains.map((s) => s.blob))).toEqual(new Set([first.blob]));
    // Built again (a build is not byte for byte the same): whole, and the digest beside it is its own.
    expect(readFileSync(again.blob).length).toBeGreaterThan(bytes.length * 0.9);
    expect(readFileSync(`${again.blob}.sha256`, 'utf8')).toBe(createHash('sha256').update(readFileSync(again.blob)).digest('hex'));
    expect(readdirSync(dirname(again.blob)).filter((n) => n.startsWith('.staging-'))).toEqual([]);
    expect(await startFrom(again, server.openaiBaseURL)).toEqual([{ type: 'ready' }, { type: 'warmed' }]);
  });

  it("a cut blob that does not start leaves the blob as built, and its build says so on stderr and beside the blob", async () => {
    const cache = await copyOfBuiltCache(join(tmp.path, 'no-cut'), false);
    const said: string[] = [];
    // Half a cut blob: Node refuses it (or dies on it) before ready, as it would a blob layout the shape check missed.
    const s = await buildWorkerSnapshot(cache, [], { cut: (whole) => whole.subarray(0, whole.length >> 1), say: (line) => said.push(line) });
    expect(said).toEqual([expect.stringMatching(/^parley: the agent start-up snapshot keeps Node's whole code cache .*: a process from the cut blob did not start: a process from the new start-up snapshot did not start/)]);
    expect(readFileSync(`${s.blob}.code-cache`, 'utf8')).toMatch(/^whole: a process from the cut blob did not start/);
    expect(findCodeCache(readFileSync(s.blob))!.entries.length).toBeGreaterThan(CODE_CACHE_KEPT.size);
    // A build whose cut starts says nothing and notes the cut.
    const cut = await buildWorkerSnapshot(join(tmp.path, 'cache'), [], { say: (line) => said.push(line) });
    expect([said.length, readFileSync(`${cut.blob}.code-cache`, 'utf8')]).toEqual([1, 'cut\n']);
  });

  it('what a killed build left beside the blob is removed once an hour old, never what a build is still writing', async () => {
    const { blob } = await buildWorkerSnapshot(join(tmp.path, 'cache'));
    const left = join(dirname(blob), '.staging-1-deadbeef-agent.blob');
    const writing = join(dirname(blob), '.staging-2-cafebabe-agent.blob');
    for (const f of [left, `${left}.sha256`, writing]) writeFileSync(f, 'part of a blob');
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    for (const f of [left, `${left}.sha256`]) utimesSync(f, twoHoursAgo, twoHoursAgo);
    await buildWorkerSnapshot(join(tmp.path, 'cache'));
    expect([existsSync(left), existsSync(`${left}.sha256`), existsSync(writing), existsSync(blob)]).toEqual([false, false, true, true]);
    rmSync(writing);
  });

  it('a build that failed is not tried again at the next pool start (for an hour), and says why', async () => {
    const cache = join(tmp.path, 'cache');
    // A flag Node refuses: the builder exits at once with an error, as a build of code the builder cannot hold would.
    const flags = ['--parley-no-such-flag'];
    await expect(buildWorkerSnapshot(cache, flags)).rejects.toThrow(/^the snapshot builder exited with 9: .*bad option: --parley-no-such-flag/);
    await expect(buildWorkerSnapshot(cache, flags)).rejects.toThrow(/^its build failed 0 min ago and is tried again after 60 min: the snapshot builder exited with 9/);
    const marker = readdirSync(dirname((await buildWorkerSnapshot(cache)).blob)).filter((n) => n.endsWith('.failed'));
    expect(marker).toEqual([expect.stringMatching(/^agent-[0-9a-f]{12}\.blob\.failed$/)]);
  });

  it('a cache that cannot be written, with the bundles but no blob, starts every pool plain without building', async (ctx) => {
    const { blob } = await buildWorkerSnapshot(join(tmp.path, 'cache'));
    rmSync(blob);
    rmSync(`${blob}.sha256`);
    const undo = unwritable(dirname(blob));
    if (!undo) return ctx.skip('no way to make a directory unwritable here (root without chattr)');
    cleanups.push(undo);
    for (const start of [1, 2]) {
      const lines: string[] = [];
      const pool = new WorkerPool({ size: 1, snapshotCache: join(tmp.path, 'cache'), log: (line) => lines.push(line) });
      cleanups.push(() => pool.close());
      await pool.start();
      expect(cmdline(pool.readyPids[0]!), `pool ${start}`).not.toContain('--snapshot-blob');
      expect(lines).toEqual([expect.stringMatching(/^agent processes start without the start-up snapshot \(the bundle cache cannot be written \((EACCES|EPERM|EROFS)\)\)$/)]);
    }
  });

  it('one process from the snapshot that dies before ready does not switch its pool: the blob is blamed only when several die in a row', async () => {
    const lines: string[] = [];
    let victim = 0;
    // Killed as it is forked (the pool's `spawned` probe), before any of its start-up has run: it cannot be ready.
    const kill = (pid: number) => {
      if (victim) return;
      victim = pid;
      process.kill(pid, 'SIGKILL');
    };
    const pool = new WorkerPool({ size: 2, log: (line) => lines.push(line), spawned: kill });
    cleanups.push(() => pool.close());
    await pool.start();
    expect(await pool.full()).toBe(true);
    expect(lines).toContain(`a process from the start-up snapshot died before ready (agent process ${victim} exited (SIGKILL); 1 in a row, the pool starts plain at 3)`);
    expect(lines.filter((l) => l.includes('without the start-up snapshot'))).toEqual([]);
    for (const pid of pool.readyPids) expect(cmdline(pid)).toContain('--snapshot-blob');
  });

  it('a pool closed while processes from the snapshot are still starting says nothing of the snapshot (they were stopped, not failed)', async () => {
    const lines: string[] = [];
    // Each stopped as it is forked (the pool's `spawned` probe), before any of its start-up has run: a stopped
    // process cannot say ready, so all four are still starting when the pool closes.
    const pids: number[] = [];
    const stop = (pid: number) => {
      pids.push(pid);
      process.kill(pid, 'SIGSTOP');
    };
    const pool = new WorkerPool({ size: 4, startParallelism: 4, log: (line) => lines.push(line), spawned: stop });
    cleanups.push(() => pool.close());
    void pool.start().catch(() => {});
    await vi.waitFor(() => expect(pids).toHaveLength(4), { timeout: 30_000 });
    expect(pids.filter((pid) => pool.readyPids.includes(pid))).toEqual([]);
    await pool.close(200);
    expect(lines.filter((l) => l.includes('start-up snapshot'))).toEqual([]);
  });

  it('a process from the snapshot that dies before ready switches its pool to the plain bundle', async () => {
    const cache = await copyOfBuiltCache(join(tmp.path, 'pool-cache'), true);
    const lines: string[] = [];
    const pool = new WorkerPool({ size: 1, snapshotCache: cache, log: (line) => lines.push(line) });
    cleanups.push(() => pool.close());
    await pool.start();
    const [first] = pool.readyPids;
    const blobArg = cmdline(first!);
    const blob = blobArg[blobArg.indexOf('--snapshot-blob') + 1]!;
    expect(blob.startsWith(cache)).toBe(true);
    // Replaced after the pool checked it by a blob Node refuses to start under these flags (it exits with 14,
    // where a truncated one would crash): the replacement of a dead worker starts from it, and exits.
    writeFileSync(blob, readFileSync((await buildWorkerSnapshot(cache, BOT_PROCESS_NODE_FLAGS)).blob));
    process.kill(first!, 'SIGKILL');
    await vi.waitFor(() => expect(lines.some((l) => l.includes('without the start-up snapshot'))).toBe(true), { timeout: 30_000 });
    await vi.waitFor(() => expect(pool.readyPids.length).toBe(1), { timeout: 30_000 });
    const line = cmdline(pool.readyPids[0]!);
    expect(line).not.toContain('--snapshot-blob');
    expect(line.some((a) => a.endsWith('worker.mjs'))).toBe(true);
  });

  it('a first wave of processes from a blob that does not start falls back to the plain bundle instead of failing the pool', async () => {
    const cache = await copyOfBuiltCache(join(tmp.path, 'wave-cache'), true);
    // The blob this pool (one seat a process, not bot-only) starts from: ONE_SEAT_PROCESS_NODE_FLAGS's.
    const good = await buildWorkerSnapshot(cache, ONE_SEAT_PROCESS_NODE_FLAGS);
    // A blob whose digest matches (so it is not rebuilt) but that Node refuses under the pool's flags (exit 14):
    // every process of the first wave dies before ready; they must not use up the pool's start failures.
    const refused = readFileSync((await buildWorkerSnapshot(cache, BOT_PROCESS_NODE_FLAGS)).blob);
    writeFileSync(good.blob, refused);
    writeFileSync(`${good.blob}.sha256`, createHash('sha256').update(refused).digest('hex'));
    const lines: string[] = [];
    const pool = new WorkerPool({ size: 4, startParallelism: 4, snapshotCache: cache, log: (line) => lines.push(line) });
    cleanups.push(() => pool.close());
    await pool.start();
    expect(lines.some((l) => l.includes('without the start-up snapshot'))).toBe(true);
    const line = cmdline(pool.readyPids[0]!);
    expect(line).not.toContain('--snapshot-blob');
    expect(await pool.full()).toBe(true);
  });

  it('the snapshot entry loads its deferred modules through the global the bundle plugin writes', () => {
    expect(readFileSync(join(REPO, 'agent-node', 'snapshot-entry.ts'), 'utf8')).toContain(`const SNAPSHOT_RUNTIME = '${RUNTIME_GLOBAL}';`);
  });
});
