import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { auditRun } from './helpers/audit.js';
import { PARLEY_BIN, parley, tempDir, within } from './helpers/processes.js';
import { CLI_GUARD_MS } from './setup/guards.js';

/**
 * Resumable runs (runs-at-scale contract, point 2) as a user meets them: `parley run` SIGKILLed partway,
 * then started again with the same arguments, ends with exactly one record per expected episode, every
 * line parses, and the killed orchestrator's agent processes did not outlive it.
 */
describe('parley run killed with SIGKILL partway, then rerun with the same arguments', () => {
  const tmp = tempDir('resume-kill');
  afterAll(() => tmp.remove());
  const out = join(tmp.path, 'run');
  // 20 built-in scenarios × 3 modes × 2 repeats = 120 episodes (the contract's command uses 5 repeats).
  const runArgs = (repeats: number, dir: string) => ['run', '--scenarios', 'builtin', '--modes', 'agents,mindreaders,script', '--repeats', String(repeats), '--concurrency', '8', '--out', dir];
  const ARGS = runArgs(2, out);
  const EXPECTED = 120;
  const lines = () => (existsSync(join(out, 'episodes.jsonl')) ? readFileSync(join(out, 'episodes.jsonl'), 'utf8').split('\n').filter((l) => l !== '') : []);
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  /** Direct children of a process (Linux). */
  const children = (pid: number): number[] => {
    try {
      return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };

  it('leaves no agent process behind, loses and duplicates nothing, and every line parses', async () => {
    const first = parley(ARGS);
    const workers = new Set<number>();
    // Kill once a few records exist (and the agent processes are up), well before the end.
    await within(
      vi.waitFor(() => {
        for (const c of children(first.child.pid!)) workers.add(c);
        expect(lines().length).toBeGreaterThanOrEqual(5);
      }, { timeout: 25_000, interval: 10 }),
      30_000,
      'first records',
      [first],
    );
    first.child.kill('SIGKILL');
    await first.exited;
    const recorded = lines().length;
    expect(recorded).toBeLessThan(EXPECTED);
    expect(workers.size).toBeGreaterThanOrEqual(2);
    // The agent processes exit on their own when their parent's IPC channel goes away.
    await vi.waitFor(() => expect([...workers].filter(alive)).toEqual([]), { timeout: 10_000, interval: 50 });

    // An append torn by an older crash: the rerun must cut it off, say so, and not lose the next record.
    appendFileSync(join(out, 'episodes.jsonl'), '{"episodeId":"torn-by-a-crash","runId":"x","scen');

    const second = parley(ARGS);
    // A hang guard with room for a loaded machine (10-16 s alone here).
    expect(await within(second.exited, CLI_GUARD_MS, 'rerun', [second]), [...second.stdout, ...second.stderr].slice(-15).join('\n')).toBe(0);
    const out2 = second.stdout.join('\n');
    expect(out2).toMatch(/removed a torn last line \(\d+ bytes\)/);
    expect(out2).toMatch(new RegExp(`resuming: ${recorded} of ${EXPECTED} episode\\(s\\) already recorded`));

    const all = lines();
    const records = all.map((l) => JSON.parse(l) as { episodeId: string; scenarioId: string; mode: string; repeat: number; status: string });
    expect(records).toHaveLength(EXPECTED);
    expect(new Set(records.map((r) => r.episodeId)).size).toBe(EXPECTED);
    // Exactly the planned episodes: every scenario × mode × repeat once.
    expect(new Set(records.map((r) => `${r.scenarioId}/${r.mode}/${r.repeat}`)).size).toBe(EXPECTED);
    expect(records.every((r) => r.status === 'ok')).toBe(true);
    // One ledger directory per recorded episode: nothing left over from the killed attempt.
    expect(readdirSync(join(out, 'ledgers')).sort()).toEqual(records.map((r) => r.episodeId).sort());
    const run = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'));
    expect(run.stats.episodes).toEqual({ total: EXPECTED, ok: EXPECTED, failed: 0 });
    expect(run.episodes).toEqual({ planned: EXPECTED, alreadyRecorded: recorded });
    expect(existsSync(join(out, '.parley-run.lock'))).toBe(false);
    expect(auditRun(out).violations).toEqual([]);
  });

  it('--retry-failed reruns failed episodes and keeps exactly one record per episode id', async () => {
    const before = lines().map((l) => JSON.parse(l) as { episodeId: string; status: string });
    const victims = new Set([before[3]!.episodeId, before[40]!.episodeId]);
    writeFileSync(join(out, 'episodes.jsonl'), before.map((r) => JSON.stringify(victims.has(r.episodeId) ? { ...r, status: 'failed' } : r) + '\n').join(''));
    const again = parley([...ARGS, '--retry-failed']);
    expect(await within(again.exited, CLI_GUARD_MS, 'retry', [again])).toBe(0);
    expect(again.stdout.join('\n')).toMatch(/retrying 2 failed episode\(s\)/);
    const after = lines().map((l) => JSON.parse(l) as { episodeId: string; status: string });
    expect(after).toHaveLength(EXPECTED);
    expect(new Set(after.map((r) => r.episodeId)).size).toBe(EXPECTED);
    expect(after.filter((r) => victims.has(r.episodeId)).map((r) => r.status)).toEqual(['ok', 'ok']);
  });

  it('`npx parley run` with its npm process SIGKILLed: the orchestrator (npm → sh → node) stops too, with its agents', async () => {
    const dir = join(tmp.path, 'npx');
    const holder = join(tmp.path, 'npm-exec-stand-in.cjs');
    // Stands in for `npm exec`: named like it (argv[0]), sets npm_command=exec, starts parley through sh.
    writeFileSync(holder, `
      const { spawn } = require('node:child_process');
      const child = spawn('sh', ['-c', 'exec "$0" "$@"', process.execPath, ${JSON.stringify(PARLEY_BIN)}, ...process.argv.slice(2)], { stdio: 'ignore', env: { ...process.env, npm_command: 'exec' } });
      child.on('exit', (code) => process.exit(code ?? 1));
    `);
    // Half the first test's run (one repeat): this test is about the kill reaching every process; the rerun
    // after it only needs to complete what the cut run left, which the first test checks at full size.
    const args = runArgs(1, dir);
    const expected = EXPECTED / 2;
    const npm = spawn('bash', ['-c', 'exec -a "npm exec parley" "$0" "$@"', process.execPath, holder, ...args], { stdio: 'ignore' });
    const npmExited = new Promise((r) => npm.once('exit', r));
    const descendants = () => {
      const all: number[] = [];
      const walk = (pid: number) => children(pid).forEach((c) => (all.push(c), walk(c)));
      walk(npm.pid!);
      return all;
    };
    let tree: number[] = [];
    await vi.waitFor(() => {
      tree = descendants();
      expect(existsSync(join(dir, 'episodes.jsonl'))).toBe(true);
      expect(tree.length).toBeGreaterThanOrEqual(3); // the orchestrator and its agent processes
    }, { timeout: 25_000, interval: 20 });
    npm.kill('SIGKILL');
    await npmExited;
    // Everything it started is gone shortly: no orchestrator left appending to the run directory.
    await vi.waitFor(() => expect(tree.filter(alive)).toEqual([]), { timeout: 10_000, interval: 50 });
    expect(existsSync(join(dir, '.parley-run.lock'))).toBe(false);
    // It stopped, rather than ran to the end unseen.
    const cut = readFileSync(join(dir, 'episodes.jsonl'), 'utf8').split('\n').filter(Boolean).length;
    expect(cut).toBeLessThan(expected);
    const again = parley(args);
    expect(await within(again.exited, CLI_GUARD_MS, 'rerun after npx kill', [again])).toBe(0);
    const records = readFileSync(join(dir, 'episodes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { episodeId: string });
    expect(new Set(records.map((r) => r.episodeId)).size).toBe(records.length);
    expect(records).toHaveLength(expected);
  });
});
