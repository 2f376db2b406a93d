import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { EpisodeRecord } from '../../protocol/index.js';
import { promptJson, startFakeLlmServer, type FakeLlmServer } from '../../testkit/fake-llm-server.js';
import { appendedLineCounter } from '../helpers/appended-lines.js';
import { watchTreeMemory } from '../helpers/peak-memory.js';
import { parley, tempDir } from '../helpers/processes.js';
import { describeWithData, sotopiaData } from '../helpers/reference-data.js';
import { cleanEnv, readEpisodes, readRunJson } from '../llm-run-helpers.js';

const data = sotopiaData();
const MODEL = 'openai:gpt-3.5-turbo-0613';
const JUDGE = 'openai:gpt-4-0613';

interface Step {
  name: string;
  code: number | null;
  seconds: number;
  peak: { totalMB: number; largestMB: number };
  output: string;
}

/**
 * Issue 28: the paper's grid at full size, as a user reproduces it — SOTOPIA's 450 instances in all three
 * modes with gpt-3.5-turbo-0613 seats (1,350 episodes, ~17 million prompt tokens) against the fake
 * OpenAI-compatible server, then eval, compare, report and the fine-tuning export. Each step's wall time
 * and peak memory (the CLI process and every agent process it starts) is printed.
 */
describeWithData(data, "the paper's grid at full size, end to end (issue 28)", () => {
  const tmp = tempDir('paper-scale');
  const out = join(tmp.path, 'R');
  const scenarios = join(tmp.path, 'S.jsonl');
  let server: FakeLlmServer;
  let env: NodeJS.ProcessEnv;
  const steps: Step[] = [];
  const runArgs = () => [
    'run', '--scenarios', scenarios, '--protocol', 'paper', '--selection', 'all', '--modes', 'script,agents,mindreaders',
    '--agent1', MODEL, '--agent2', MODEL, '--script-writer', MODEL, '--concurrency', '50', '--multiplex', '--out', out,
  ];

  /** Runs one CLI step to completion, timing it and sampling its process tree's memory. */
  async function step(name: string, args: string[], timeoutMs: number): Promise<Step> {
    const started = Date.now();
    const cli = parley(args, { env });
    const memory = watchTreeMemory(cli.child.pid!);
    const timer = setTimeout(() => cli.kill(), timeoutMs);
    const code = await cli.exited.finally(() => clearTimeout(timer));
    const s: Step = { name, code, seconds: (Date.now() - started) / 1000, peak: memory.stop(), output: [...cli.stdout, ...cli.stderr].join('\n') };
    steps.push(s);
    console.log(`paper-scale: ${name}: exit ${code}, ${s.seconds.toFixed(1)} s, peak memory ${s.peak.totalMB} MB in all, largest process ${s.peak.largestMB} MB`);
    return s;
  }

  const hashOf = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
  const promptTokens = (records: EpisodeRecord[]) => {
    let sum = 0;
    for (const r of records) {
      if (r.mode !== 'script') for (const t of r.turns) sum += t.usage?.prompt ?? 0;
      sum += r.scriptWriter?.usage?.prompt ?? 0;
    }
    return sum;
  };

  /** The turn seats leave at (the fake server's default, 4, unless a step sets it). */
  let leaveFrom: number | undefined;

  beforeAll(async () => {
    // The fake server's plausible moves end episodes sooner than gpt-3.5 did: report five times the
    // prompt tokens it counts, so the grid's totals land where the paper's did (~17M for one arm).
    server = await startFakeLlmServer({
      // Nothing here reads the requests back: ~10,000 held bodies (whole paper prompts) only fed the GC.
      keepRequests: false,
      default: (req) => ({ kind: 'plausible', usage: { prompt: 5 * Math.ceil(promptJson(req.body).length / 4) }, ...(leaveFrom !== undefined && { leaveFrom }) }),
    });
    env = cleanEnv(server.env());
    expect((await step('scenarios import', ['scenarios', 'import', 'sotopia', data.dir, '--out', scenarios], 60_000)).code).toBe(0);
  }, 90_000);
  afterAll(async () => {
    console.log(['paper-scale figures:', ...steps.map((s) => `  ${s.name.padEnd(18)} ${s.seconds.toFixed(1).padStart(6)} s  peak ${String(s.peak.totalMB).padStart(5)} MB (largest process ${s.peak.largestMB} MB)`)].join('\n'));
    await server.close();
    // Tens of thousands of ledger and cassette files: removing them took over vitest's 60 s at load 40 once.
    // `rm -rf` where there is one: Node 20's recursive rmSync walks the tree in JavaScript, ~0.6 s of CPU
    // for a 16,000-entry run directory where rm takes 0.1 s. rmSync removes what rm could not.
    if (process.platform !== 'win32') spawnSync('rm', ['-rf', '--', tmp.path], { stdio: 'ignore' });
    tmp.remove();
  }, 180_000);

  it('run: 1,350 episodes, exit 0, run.json ended with prompt tokens equal to the sum over the records (contract 1)', async () => {
    const s = await step('run', runArgs(), 600_000);
    expect(s.code, s.output.slice(-2000)).toBe(0);
    const records = readEpisodes(out);
    expect(records).toHaveLength(1350);
    // On failure, the orchestrator's own lines about seats and processes say what happened.
    const why = s.output.split('\n').filter((l) => /agent process|release|recover|heartbeat/i.test(l)).slice(-20).join('\n');
    expect(records.filter((r) => r.status !== 'ok'), why).toEqual([]);
    const run = readRunJson(out);
    expect(run['endedAt']).toEqual(expect.any(String));
    expect(run['summaryError']).toBeUndefined();
    const usage = run.stats.usage[MODEL] as { prompt: number };
    expect(usage.prompt).toBe(promptTokens(records));
    console.log(`paper-scale: run.json prompt tokens ${usage.prompt.toLocaleString('en')} over ${records.length} episodes (sum over the records: equal)`);
    // The grid's totals are past the 10-million cap that used to fail here.
    expect(usage.prompt).toBeGreaterThan(10_000_000);
  }, 660_000);

  it('eval with the paper judge, then report with the paper beside, exit 0 (contract 2)', async () => {
    const e = await step('eval', ['eval', out, '--judge', JUDGE, '--concurrency', '16'], 600_000);
    expect(e.code, e.output.slice(-2000)).toBe(0);
    const scored = readEpisodes(out).filter((r) => (r as EpisodeRecord & { evaluation?: unknown }).evaluation);
    expect(scored).toHaveLength(1350);
    const r = await step('report', ['report', out], 300_000);
    expect(r.code, r.output.slice(-2000)).toBe(0);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toMatch(/paper/i);
  }, 960_000);

  it('compare --protocol paper and export --format openai-chat, exit 0', async () => {
    const c = await step('compare', ['compare', out, out, '--mode-a', 'script', '--mode-b', 'agents', '--protocol', 'paper', '--orders', 'one', '--judge', JUDGE, '--concurrency', '16'], 600_000);
    expect(c.code, c.output.slice(-2000)).toBe(0);
    const x = await step('export', ['export', out, '--format', 'openai-chat', '--out', join(tmp.path, 'ft.jsonl')], 300_000);
    expect(x.code, x.output.slice(-2000)).toBe(0);
    expect(existsSync(join(tmp.path, 'ft.jsonl'))).toBe(true);
  }, 960_000);

  it('the same run command again changes no record and exits 0 (contract 3)', async () => {
    const before = hashOf(join(out, 'episodes.jsonl'));
    const s = await step('run again', runArgs(), 300_000);
    expect(s.code, s.output.slice(-2000)).toBe(0);
    expect(hashOf(join(out, 'episodes.jsonl'))).toBe(before);
    expect(readRunJson(out)['endedAt']).toEqual(expect.any(String));
  }, 360_000);

  it('grows to the grid\'s 2,700 episodes with --extend, survives a kill at 2,000, and reports over all of it', async () => {
    // Complete lines (records end with a newline), counted in the bytes appended since the last poll: the
    // file only grows while the run appends, and reading all of it (5-7 MB) every 100 ms cost the test
    // process ~10 s of CPU over the ~100 s the first invocation takes at load 40.
    const lines = appendedLineCounter(join(out, 'episodes.jsonl'));
    const extend = [...runArgs(), '--repeats', '2', '--extend'];
    // What this step tests is a 2,700-record run grown, killed and resumed, not conversations (the first
    // arm's are): the first seat to move leaves, so its 1,350 episodes make 3,600 fewer calls (~20 s of CPU).
    leaveFrom = 0;
    // Killed (SIGKILL, as a crash) once 2,000 episodes are recorded.
    const started = Date.now();
    const first = parley(extend, { env });
    const memory = watchTreeMemory(first.child.pid!);
    await vi.waitFor(() => expect(lines()).toBeGreaterThanOrEqual(2000), { timeout: 300_000, interval: 100 });
    first.kill();
    await first.exited;
    const killedAt = lines();
    lines.close();
    const peak = memory.stop();
    steps.push({ name: 'extend (killed)', code: null, seconds: (Date.now() - started) / 1000, peak, output: '' });
    console.log(`paper-scale: extend killed at ${killedAt} records after ${((Date.now() - started) / 1000).toFixed(1)} s, peak ${peak.totalMB} MB`);
    const s = await step('extend (resumed)', extend, 600_000);
    expect(s.code, s.output.slice(-2000)).toBe(0);
    const records = readEpisodes(out);
    expect(records).toHaveLength(2700);
    expect(new Set(records.map((r) => r.episodeId)).size).toBe(2700);
    const run = readRunJson(out);
    expect(run['endedAt']).toEqual(expect.any(String));
    expect((run.stats.usage[MODEL] as { prompt: number }).prompt).toBe(promptTokens(records));
    const r = await step('report (2,700)', ['report', out], 300_000);
    expect(r.code, r.output.slice(-2000)).toBe(0);
  }, 1_000_000);
});
