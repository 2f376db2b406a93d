import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordedProtocolKey } from '../orchestrator/run/driver.js';
import { episodeId } from '../orchestrator/run/plan.js';
import type { EpisodeRecord } from '../protocol/index.js';
import { reply, startFakeLlmServer, type FakeLlmServer, type ReceivedRequest } from '../testkit/fake-llm-server.js';
import { tempDir } from './helpers/processes.js';
import { cleanEnv, parleyCliInProcess, parleyRunInProcess, readEpisodes } from './llm-run-helpers.js';

/**
 * Issue 42, contracts 1 and 2: the paper's selection rule (`selection: first-valid`, the default under
 * `--protocol paper`) against the fake OpenAI-compatible server on 127.0.0.1, through the real CLI.
 */
const text = (r: ReceivedRequest) => (r.body.messages ?? []).map((m) => String(m.content)).join('\n');
const turnOf = (r: ReceivedRequest) => Number(/You are at Turn #(\d+)/.exec(text(r))?.[1] ?? -1);
/** An agent's speak move (never a leave: the episode runs to the turn limit); anything else (the judge) a plausible answer. */
const speak = (r: ReceivedRequest) => (turnOf(r) >= 0 ? reply.json({ action_type: 'speak', argument: `Line at turn ${turnOf(r)}.` }) : reply.plausible());

const tmp = tempDir('selection-run');
let server: FakeLlmServer;
afterAll(async () => {
  await server?.close();
  tmp.remove();
});

// --multiplex: seats of different episodes share warm agent processes (never two of one episode); the
// selection rule does not depend on how seats are hosted.
const runArgs = (out: string, extra: string[] = []) => [
  '--scenarios', 'builtin', '--subset', 'mutual_friends', '--protocol', 'paper', '--modes', 'agents', '--limit', '6', '--max-turns', '7',
  '--agent1', 'openai:gpt-3.5-turbo', '--agent2', 'openai:gpt-3.5-turbo', '--concurrency', '2', '--multiplex', '--out', out, ...extra,
];

describe('selection first-valid: short draws re-drawn (contract 1)', () => {
  const out = join(tmp.path, 'short');
  let stdout = '';
  let records: EpisodeRecord[] = [];
  beforeAll(async () => {
    // The first draw of each episode leaves after 2 moves: the second seat's first move is a leave, once per instance.
    const left = new Set<string>();
    server = await startFakeLlmServer({
      default: (r) => {
        const instance = text(r).split('Turn #')[0]!;
        if (turnOf(r) === 1 && !left.has(instance)) {
          left.add(instance);
          return reply.json({ action_type: 'leave', argument: '' });
        }
        return speak(r);
      },
    });
    const run = await parleyRunInProcess(runArgs(out), cleanEnv(server.env()), 120_000);
    expect(run.code, run.stderr).toBe(0);
    stdout = run.stdout;
    records = readEpisodes(out);
  });

  it('counts 6 episodes, each with more than 5 moves; the 6 short draws are kept, marked superseded', () => {
    const counted = records.filter((r) => r.selection?.status === 'counted');
    const superseded = records.filter((r) => r.selection?.status === 'superseded');
    expect(counted).toHaveLength(6);
    for (const r of counted) expect(r.turns.length).toBeGreaterThan(5);
    expect(superseded).toHaveLength(6);
    for (const r of superseded) {
      expect(r.selection).toEqual({ status: 'superseded', reason: 'short' });
      expect(r.turns).toHaveLength(2);
      expect(r.draw ?? 0).toBe(0);
    }
    // one counted draw per instance, the second one; --limit 6 counted instances, not draws
    expect(new Set(counted.map((r) => `${r.scenarioId}/${r.pairId}/${r.repeat}`)).size).toBe(6);
    expect(counted.every((r) => r.draw === 1)).toBe(true);
  });

  it('plays the re-draws on the agent pool it started (one pool start), under the ids of their draw numbers', () => {
    // Each re-draw is played as soon as its short draw is recorded, on the same processes: no second pool.
    expect(stdout.match(/starting \d+ agent process\(es\)/g)).toHaveLength(1);
    expect(stdout.match(/selection first-valid: re-drawing/g)).toHaveLength(6);
    const protocol = recordedProtocolKey((JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as { protocol: unknown }).protocol)!;
    const specs = ['openai:gpt-3.5-turbo', 'openai:gpt-3.5-turbo'];
    const idOf = (r: EpisodeRecord, draw: number) => episodeId({ scenarioId: r.scenarioId, pairId: r.pairId, mode: r.mode, specs, repeat: r.repeat, protocol, draw });
    const superseded = records.filter((r) => r.selection?.status === 'superseded');
    expect(superseded).toHaveLength(6);
    for (const r of superseded) {
      expect(r.episodeId).toBe(idOf(r, 0));
      expect(records.find((c) => c.episodeId === idOf(r, 1))).toMatchObject({ draw: 1, selection: { status: 'counted' } });
    }
  });

  it('the run summary, the card and the report say how many re-draws were made', async () => {
    expect(stdout).toContain('selection first-valid');
    expect(stdout).toMatch(/agents \(gpt-3\.5-turbo × gpt-3\.5-turbo\): 6 instance\(s\), 12 draw\(s\), 6 re-draw\(s\) \(superseded: 6 short, 0 unscored\); counted episodes by draws taken: 2 draws ×6/);
    const rep = await parleyCliInProcess(['report', out], cleanEnv());
    expect(rep.code, rep.stderr).toBe(0);
    expect(rep.stdout).toContain('report of 6 episodes');
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toContain('**Selection and draws**');
    expect(md).toContain('counted: the first valid draw of each instance');
    expect(md).toMatch(/6 re-draw\(s\) \(superseded: 6 short, 0 unscored\)/);
    // --selection all: every draw, short ones included, in its own folder
    const all = await parleyCliInProcess(['report', out, '--selection', 'all'], cleanEnv());
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toContain('report of 12 episodes');
    expect(readFileSync(join(out, 'reports', 'selection-all', 'report.md'), 'utf8')).toContain('this report counts every draw');
  });

  it('is resumable: the same command again owes nothing and adds nothing', async () => {
    const again = await parleyRunInProcess(runArgs(out), cleanEnv(server.env()), 60_000);
    expect(again.code, again.stderr).toBe(0);
    expect(readEpisodes(out)).toHaveLength(12);
  });
});

describe('selection first-valid: an unscored draw re-drawn after eval (contract 2)', () => {
  const out = join(tmp.path, 'unscored');
  const judgeCalls = () => server.requests.filter((r) => /Based on|evaluate/i.test(text(r)) && !/You are at Turn/.test(text(r))).length;

  it('eval, run --redraw, eval --missing: the instance gets a counted, scored episode and the failed draw is kept', async () => {
    server.setDefault(speak);
    const args = runArgs(out).map((a) => (a === '6' ? '2' : a));
    const run = await parleyRunInProcess(args, cleanEnv(server.env()), 120_000);
    expect(run.code, run.stderr).toBe(0);
    expect(readEpisodes(out)).toHaveLength(2);

    // The judge fails to score the first episode it is asked about twice (its reply and the reformat), then scores.
    server.enqueue(reply.text('not a judgement'), reply.text('still not a judgement'));
    const env = cleanEnv(server.env());
    const evald = await parleyCliInProcess(['eval', out, '--judge', 'openai:gpt-4-0613', '--concurrency', '1'], env);
    expect(evald.code, evald.stderr).toBe(0);
    const unscored = readEpisodes(out).filter((r) => Object.values((r.evaluation as { judge: { seats: Record<string, { ok: boolean }> } }).judge.seats).some((s) => !s.ok));
    expect(unscored).toHaveLength(1);
    const failed = unscored[0]!;

    const redraw = await parleyRunInProcess([...args, '--redraw'], env, 120_000);
    expect(redraw.code, redraw.stderr).toBe(0);
    expect(redraw.stderr + redraw.stdout).toContain('1 counted episode(s) the judge could not score marked superseded');
    const after = readEpisodes(out);
    expect(after).toHaveLength(3);
    expect(after.find((r) => r.episodeId === failed.episodeId)!.selection).toEqual({ status: 'superseded', reason: 'unscored' });

    const before = judgeCalls();
    const missing = await parleyCliInProcess(['eval', out, '--judge', 'openai:gpt-4-0613', '--missing'], env);
    expect(missing.code, missing.stderr).toBe(0);
    // only the new draw is judged
    expect(judgeCalls() - before).toBe(1);
    const final = readEpisodes(out);
    const same = final.filter((r) => r.scenarioId === failed.scenarioId && r.pairId === failed.pairId && r.repeat === failed.repeat);
    expect(same).toHaveLength(2);
    const counted = same.find((r) => r.selection?.status === 'counted')!;
    expect(counted.draw).toBe(1);
    expect(Object.values((counted.evaluation as { judge: { seats: Record<string, { ok: boolean }> } }).judge.seats).every((s) => s.ok)).toBe(true);
    // the failed draw is kept, with its evaluation error
    const kept = same.find((r) => r.episodeId === failed.episodeId)!;
    expect(kept.selection).toEqual({ status: 'superseded', reason: 'unscored' });
    expect(Object.values((kept.evaluation as { judge: { seats: Record<string, { ok: boolean }> } }).judge.seats).some((s) => !s.ok)).toBe(true);
  }, 300_000);
});
