import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { auditRun } from './helpers/audit.js';
import { parley, tempDir } from './helpers/processes.js';
import { botRunSuite } from './helpers/bot-run-suite.js';
import { parleyInProcess } from './helpers/in-process-parley.js';

const readJsonl = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));

/**
 * `parley run` as a user runs it (episode network contract, points 2 and 3): a child process over the
 * built-in scenarios in all three modes, then every file of the run directory checked.
 */
describe('parley run --scenarios builtin --modes script,agents,mindreaders --out DIR', () => {
  const bots = botRunSuite('cli-run', ['--modes', 'script,agents,mindreaders']);
  const { out } = bots;

  it('exits 0 and prints progress and the per-mode summary', () => {
    const { code, stdout } = bots.result;
    expect(code).toBe(0);
    expect(stdout.filter((l) => /^\[\s*\d+\/60\]/.test(l))).toHaveLength(60);
    for (const mode of ['script', 'agents', 'mindreaders']) {
      expect(stdout.some((l) => new RegExp(`^\\s*${mode}\\s+20 episodes .*task success \\d+%`).test(l))).toBe(true);
    }
  });

  it('writes run.json with the configuration, the code version and the orchestrator pid', () => {
    const run = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'));
    expect(run.config).toMatchObject({ scenarios: 'builtin', modes: ['script', 'agents', 'mindreaders'], out });
    expect(run.code.package).toBe('0.1.0');
    expect(run.code).toHaveProperty('git');
    expect(run.orchestrator.pid).toEqual(expect.any(Number));
    expect(run.pid).toBe(run.orchestrator.pid);
    expect(run.stats.episodes).toEqual({ total: 60, ok: 60, failed: 0 });
    expect(run.endedAt).toEqual(expect.any(String));
  });

  it('writes every scenario used, in full, to scenarios.jsonl', () => {
    const scenarios = readJsonl(join(out, 'scenarios.jsonl'));
    expect(scenarios).toHaveLength(20);
    for (const s of scenarios) {
      expect(s.id).toEqual(expect.any(String));
      expect(typeof s.judgeOnly).toBe('string');
      for (const seat of s.seats) {
        expect(typeof seat.goal).toBe('string');
        expect(typeof seat.secret).toBe('string');
      }
    }
  });

  it('writes one record per episode with seats, pids, policies, turns, termination and outcome', () => {
    const records = readJsonl(join(out, 'episodes.jsonl'));
    expect(records).toHaveLength(60);
    expect(new Set(records.map((r) => r.episodeId)).size).toBe(60);
    const scenarios = new Map(readJsonl(join(out, 'scenarios.jsonl')).map((s) => [s.id, s]));
    for (const r of records) {
      expect(r).toMatchObject({ episodeId: expect.any(String), scenarioId: expect.any(String), mode: expect.stringMatching(/^(script|agents|mindreaders)$/) });
      expect(r.seats.map((s: { seat: string }) => s.seat)).toEqual(scenarios.get(r.scenarioId).seats.map((s: { seat: string }) => s.seat));
      for (const s of r.seats) {
        expect(s).toHaveProperty('pid');
        expect(s.policy).toBe('bot');
      }
      expect(r.turns.length).toBeGreaterThan(0);
      for (const t of r.turns) expect(t).toMatchObject({ turn: expect.any(Number), seat: expect.any(String), action: { type: expect.any(String), argument: expect.any(String) } });
      expect(r.termination.reason).toEqual(expect.any(String));
      expect(typeof r.outcome.success).toBe('boolean');
    }
  });

  it('writes a ledger per live seat holding every frame its process received, in order', () => {
    const records = readJsonl(join(out, 'episodes.jsonl'));
    for (const r of records) {
      const files = readdirSync(join(out, 'ledgers', r.episodeId)).sort();
      const want = r.mode === 'script' ? ['script.jsonl'] : r.seats.map((s: { seat: string }) => `${s.seat}.jsonl`).sort();
      expect(files).toEqual(want);
      if (r.mode === 'script') continue;
      const frames = readJsonl(join(out, 'ledgers', r.episodeId, `${r.seats[0].seat}.jsonl`));
      expect(frames[0].type).toBe('seat.welcome');
      expect(frames.at(-1)).toMatchObject({ type: 'episode.end', reason: r.termination.reason });
      // Every public move reached the seat, in turn order.
      expect(frames.filter((f) => f.type === 'turn.event').map((f) => f.turn)).toEqual(r.turns.map((t: { turn: number }) => t.turn));
    }
  });

  it('holds the isolation guarantees, checked from the files alone', () => {
    const audit = auditRun(out);
    expect(audit.violations).toEqual([]);
    expect(audit.checked.episodes).toBe(60);
    expect(audit.checked.peerStates).toBe(40);
  });

  it('resumes: rerunning with the same --out runs nothing twice', async () => {
    const again = parley(['run', '--scenarios', 'builtin', '--modes', 'script,agents,mindreaders', '--out', out]);
    expect(await again.exited).toBe(0);
    expect(again.stdout.join('\n')).toMatch(/60 of 60 episode\(s\) already recorded/);
    expect(readJsonl(join(out, 'episodes.jsonl'))).toHaveLength(60);
  });
});

describe('parley run: bad arguments fail before any episode, naming the problem', () => {
  const tmp = tempDir('cli-bad');
  afterAll(() => tmp.remove());
  // In this process (testkit/in-process-cli.ts): a refusal is the command's own check, not its process's; each
  // was a `parley run` process of its own (~0.3-0.7 CPU-s). --queue hands a run to other processes: refused in-process, so a process.
  const refusedRun = async (args: string[], env?: NodeJS.ProcessEnv) => {
    if (args.includes('--queue')) {
      const p = parley(['run', ...args], env ? { env } : {});
      return { code: await p.exited, stderr: p.stderr.join('\n') };
    }
    const r = await parleyInProcess(['run', ...args], env ? { env } : {});
    return { code: r.code, stderr: r.stderr.join('\n') };
  };

  it('names a missing API key variable and writes nothing', async () => {
    const env = { ...process.env };
    delete env.OPENAI_API_KEY;
    const out = join(tmp.path, 'nokey');
    const p = await refusedRun(['--modes', 'agents', '--agent1', 'openai:gpt-3.5-turbo', '--out', out], env);
    expect(p.code).toBe(2);
    expect(p.stderr).toMatch(/OPENAI_API_KEY/);
    expect(existsSync(join(out, 'episodes.jsonl'))).toBe(false);
  });

  it('rejects an unknown mode, a bad number and an unknown flag', async () => {
    for (const [args, msg] of [
      [['--modes', 'agents,telepathy'], /--modes: unknown mode 'telepathy'/],
      [['--max-turns', 'many'], /--max-turns must be a number/],
      [['--max-turns', '0'], /--max-turns: /],
      [['--frobnicate'], /unknown flag --frobnicate/],
      [['--agent1', 'gpt4'], /--agent1: 'gpt4' is not a policy spec/],
      [['--seats-per-process', '4'], /--seats-per-process needs --multiplex/],
      [['--multiplex', '--seats-per-process', '0'], /--seats-per-process: expected a positive integer/],
      // Refused before Redis is dialled (port 1 would be a connection failure, exit 1).
      [['--queue', 'redis://127.0.0.1:1', '--concurrency', '8'], /--concurrency: with --queue each worker decides/],
    ] as const) {
      const p = await refusedRun(['--out', join(tmp.path, 'x'), ...args]);
      expect(p.code).toBe(2);
      expect(p.stderr).toMatch(msg);
    }
  });

  it('reports an experiment file error with its line and field', async () => {
    const file = join(tmp.path, 'exp.yaml');
    writeFileSync(file, 'scenarios: builtin\nmodes: [agents]\nmaxTurns: -3\n');
    const p = await refusedRun(['--experiment', file, '--out', join(tmp.path, 'y')]);
    expect(p.code).toBe(2);
    expect(p.stderr).toMatch(/exp\.yaml:3: maxTurns: /);
  });
});
