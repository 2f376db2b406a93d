import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EpisodeRecord } from '../protocol/index.js';
import { reply, startFakeLlmServer, type FakeLlmServer } from '../testkit/fake-llm-server.js';
import { knownBefore, ledger, promptTurn, snapshot } from './fork-helpers.js';
import { auditRun } from './helpers/audit.js';
import { tempDir } from './helpers/processes.js';
import { readCassette } from '../llm/index.js';
import { cleanEnv, parleyCliInProcess, parleyRunInProcess, readEpisodes, readRunJson, turnsById } from './llm-run-helpers.js';

/**
 * Issue 26, contracts 1 to 4 (and sweeps): a run R of LLM seats against the fake OpenAI-compatible server, then
 * `parley fork R EP --at 4 --agent2 openai:gpt-4o --repeats 3 --out F`. The server answers every move with
 * a `speak` naming the model and the turn it was asked for, so the parent plays its 8 turns.
 */
describe('parley fork (issue 26: contracts 1 to 4)', () => {
  let server: FakeLlmServer;
  const r = tempDir('fork-r');
  const f = tempDir('fork-f');
  const f2 = tempDir('fork-f2');
  const none = tempDir('fork-none');
  const g = tempDir('fork-g');
  const sweep = tempDir('fork-sweep');
  const all = tempDir('fork-all');
  let parent: EpisodeRecord;
  let before: number;

  beforeAll(async () => {
    server = await startFakeLlmServer({ default: (q) => reply.json({ action_type: 'speak', argument: `${q.body.model} speaking at turn ${promptTurn(q)}` }) });
    const run = await parleyRunInProcess(['--scenarios', 'builtin', '--modes', 'agents', '--limit', '1', '--max-turns', '8', '--concurrency', '1', '--agent1', 'openai:gpt-3.5-turbo', '--agent2', 'openai:gpt-3.5-turbo', '--out', r.path], cleanEnv(server.env()));
    expect(run.code, run.stderr).toBe(0);
    parent = readEpisodes(r.path)[0]!;
    expect(parent.turns).toHaveLength(8);
    before = server.requests.length;
  });
  afterAll(async () => {
    await server.close();
    for (const d of [r, f, f2, none, g, sweep, all]) d.remove();
  });

  it('contract 1: 3 forks, each with EP\'s first 4 turns, later turns from new requests, none for turns before 4', async () => {
    const run = await parleyCliInProcess(['fork', r.path, parent.episodeId, '--at', '4', '--agent2', 'openai:gpt-4o', '--repeats', '3', '--out', f.path], cleanEnv(server.env()));
    expect(run.code, run.stderr).toBe(0);
    const forks = readEpisodes(f.path);
    expect(forks).toHaveLength(3);
    const fresh = server.requests.slice(before);
    // No request for a turn before the fork turn; one per live move, agent2's to gpt-4o.
    expect(fresh.map(promptTurn).every((t) => t >= 4)).toBe(true);
    expect(fresh).toHaveLength(forks.reduce((n, e) => n + e.turns.length - 4, 0));
    for (const e of forks) {
      expect(e.status).toBe('ok');
      expect(e.turns.slice(0, 4)).toEqual(parent.turns.slice(0, 4));
      expect(e.turns).toHaveLength(8);
      for (const t of e.turns.slice(4)) {
        expect(t.model).toBe(t.seat === 'agent2' ? 'gpt-4o' : 'gpt-3.5-turbo');
        expect(t.action?.argument).toBe(`${t.model} speaking at turn ${t.turn}`);
      }
      expect(e.fork).toMatchObject({ parentRun: parent.runId, parentEpisode: parent.episodeId, at: 4 });
      expect(e.seats.map((s) => s.policy)).toEqual(['openai:gpt-3.5-turbo', 'openai:gpt-4o']);
      // Every seat was told exactly what the parent's seat was told before turn 4, and its ledger says where the live part begins.
      for (const seat of ['agent1', 'agent2']) {
        const mine = ledger(f.path, e.episodeId, seat);
        const live = e.fork!.liveFromLine![seat]!;
        expect(knownBefore(mine.slice(0, live), 4)).toEqual(knownBefore(ledger(r.path, parent.episodeId, seat), 4));
        expect(mine.slice(0, live).some((x) => x.type === 'turn.request')).toBe(false);
        // The live part starts with turn 4: the request to agent1, agent1's move for agent2.
        expect(mine[live]).toMatchObject({ type: seat === 'agent1' ? 'turn.request' : 'turn.event', turn: 4 });
      }
    }
    // agent1 kept its model: its first live prompt (turn 4) is the parent's turn-4 prompt, message for message.
    const cassette = (dir: string, ep: string) => readCassette(join(dir, 'cassettes', ep, 'agent1.jsonl'))!;
    const parentTurn4 = cassette(r.path, parent.episodeId).find((c) => c.request.messages.some((m) => /You are at Turn #4[.;]/.test(m.content)))!;
    for (const e of forks) expect(cassette(f.path, e.episodeId)[0]!.request.messages).toEqual(parentTurn4.request.messages);
    const runJson = readRunJson(f.path) as unknown as { config: { fork: { parent: string; parentRun: string; episode: string }; forkAt: number[] }; stats: { usage: Record<string, { calls: number }> } };
    expect(runJson.config.fork).toMatchObject({ parent: r.path, parentRun: parent.runId, episode: parent.episodeId });
    expect(runJson.config.forkAt).toEqual([4]);
    // Only the live turns were spent here: the replayed ones were the parent's.
    expect(Object.values(runJson.stats.usage).reduce((n, u) => n + u.calls, 0)).toBe(fresh.length);
  });

  it("contract 2: --reveal agent2.goal:agent1 puts agent2's goal in agent1's ledger in a peer.state after turn 4 and nowhere before; no other seat receives it", async () => {
    const run = await parleyCliInProcess(['fork', r.path, parent.episodeId, '--at', '4', '--reveal', 'agent2.goal:agent1', '--out', g.path], cleanEnv(server.env()));
    expect(run.code, run.stderr).toBe(0);
    const [e] = readEpisodes(g.path);
    expect(e!.mode).toBe('agents');
    expect(e!.fork).toMatchObject({ at: 4, reveal: ['agent2.goal:agent1'] });
    const scenario = JSON.parse(readFileSync(join(g.path, 'scenarios.jsonl'), 'utf8').split('\n')[0]!) as { seats: Array<{ seat: string; goal: string }> };
    const goal2 = scenario.seats.find((s) => s.seat === 'agent2')!.goal;
    const holds = (x: object) => JSON.stringify(x).includes(JSON.stringify(goal2).slice(1, -1));
    const a1 = ledger(g.path, e!.episodeId, 'agent1');
    const at = a1.findIndex(holds);
    expect(a1[at]).toMatchObject({ type: 'peer.state', reason: 'fork_reveal', state: { seat: 'agent2', goal: goal2 } });
    // After turn 3's move, before turn 4 is asked for, in the live part; nowhere before.
    expect(at).toBeGreaterThan(a1.findIndex((x) => x.type === 'turn.event' && x.turn === 3));
    expect(at).toBeLessThan(a1.findIndex((x) => x.type === 'turn.request' && x.turn === 4));
    expect(at).toBeGreaterThanOrEqual(e!.fork!.liveFromLine!.agent1!);
    expect(a1.slice(0, at).some(holds)).toBe(false);
    // No other seat receives it: agent2 gets no peer.state at all, and the isolation audit passes the run.
    expect(ledger(g.path, e!.episodeId, 'agent2').some((x) => x.type === 'peer.state')).toBe(false);
    const audit = auditRun(g.path);
    expect(audit.violations).toEqual([]);
    expect(audit.checked.reveals).toBe(1);
    // The audit can fail: a record that does not declare the reveal, or a reveal before the live part, is a leak.
    const tampered = join(none.path, 'tampered');
    const tamper = (edit: (fork: Record<string, unknown>) => void) => {
      rmSync(tampered, { recursive: true, force: true });
      cpSync(g.path, tampered, { recursive: true });
      const rec = JSON.parse(readFileSync(join(g.path, 'episodes.jsonl'), 'utf8')) as { fork: Record<string, unknown> };
      edit(rec.fork);
      writeFileSync(join(tampered, 'episodes.jsonl'), JSON.stringify(rec) + '\n');
      return auditRun(tampered).violations;
    };
    expect(tamper((fk) => delete fk.reveal)).toEqual([expect.stringContaining("partner agent2's private text leaked in agents mode")]);
    expect(tamper((fk) => (fk.liveFromLine = { agent1: 999, agent2: 999 }))).toEqual([expect.stringContaining('does not first arrive in a fork_reveal peer.state of the live part')]);
    // parley show --seat marks where the live part begins: the reveal is its first frame.
    const shown = await parleyCliInProcess(['show', g.path, e!.episodeId, '--seat', 'agent1'], cleanEnv());
    expect(shown.code, shown.stderr).toBe(0);
    const out = shown.stdout.split('\n');
    const mark = out.findIndex((l) => l.startsWith(`--- live from here: fork of ${parent.runId}/${parent.episodeId} at turn 4`));
    expect(mark).toBeGreaterThan(0);
    expect(out[mark + 1]).toBe(`[${at + 1}] peer.state`);
    // The parent's agent1 never had it; the fork's agent1 prompted with it from turn 4 on.
    const prompts = (dir: string, ep: string) => readCassette(join(dir, 'cassettes', ep, 'agent1.jsonl'))!.map((c) => JSON.stringify(c.request.messages));
    expect(prompts(r.path, parent.episodeId).some((p) => p.includes(goal2))).toBe(false);
    const live = prompts(g.path, e!.episodeId);
    expect(live.length).toBeGreaterThan(0);
    expect(live.every((p) => p.includes(JSON.stringify(goal2).slice(1, -1)))).toBe(true);
  });

  it('a sweep (--at 2,6, extended with 4) and --at all: one fork per turn and repeat; --at all stops where the episode cannot go on', async () => {
    // --concurrency 1: one episode at a time on two agent processes (four at once started eight); what a sweep
    // plays and records does not depend on how many of its forks are in flight.
    const run = await parleyCliInProcess(['fork', r.path, parent.episodeId, '--at', '2,6', '--agent2', 'openai:gpt-4o', '--repeats', '2', '--concurrency', '1', '--out', sweep.path], cleanEnv(server.env()));
    expect(run.code, run.stderr).toBe(0);
    const forks = readEpisodes(sweep.path);
    expect(forks.map((e) => e.fork!.at).sort()).toEqual([2, 2, 6, 6]);
    for (const e of forks) expect(e.turns.slice(0, e.fork!.at)).toEqual(parent.turns.slice(0, e.fork!.at));
    // --extend adds a fork turn to the same run; only its forks are played.
    const extended = await parleyCliInProcess(['fork', r.path, parent.episodeId, '--at', '2,4,6', '--agent2', 'openai:gpt-4o', '--repeats', '2', '--concurrency', '1', '--extend', '--out', sweep.path], cleanEnv(server.env()));
    expect(extended.code, extended.stderr).toBe(0);
    expect(extended.stdout).toContain('(4 from an earlier invocation)');
    expect(readEpisodes(sweep.path).map((e) => e.fork!.at).sort()).toEqual([2, 2, 4, 4, 6, 6]);
    // Bots play on from every turn: no LLM request at all, and fork turn 8 (after the turn limit) is left out.
    const count = server.requests.length;
    const bots = await parleyCliInProcess(['fork', r.path, parent.episodeId, '--at', 'all', '--agent1', 'bot', '--agent2', 'bot', '--concurrency', '1', '--out', all.path], cleanEnv(server.env()));
    expect(bots.code, bots.stderr).toBe(0);
    expect(server.requests.length).toBe(count);
    expect(readEpisodes(all.path).map((e) => e.fork!.at).sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect((readRunJson(all.path).config as { forkAt: number[] }).forkAt).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it("contract 4: parley report F --parent R shows the forks' outcomes and judge scores beside the parent's, per fork turn, with a chart of the effect", async () => {
    server.setDefault(reply.plausible());
    for (const dir of [sweep.path, r.path]) {
      const judged = await parleyCliInProcess(['eval', dir, '--judge', 'openai:gpt-4', '--concurrency', '1'], cleanEnv(server.env()));
      expect(judged.code, judged.stderr).toBe(0);
      if (dir !== sweep.path) continue;
      // Issue 38: without --parent the report takes the parent run.json names, and says the parent needs eval.
      const own = await parleyCliInProcess(['report', sweep.path], cleanEnv());
      expect(own.code, own.stderr).toBe(0);
      expect(own.stdout).toContain(`forks of ${parent.runId}/${parent.episodeId} beside the parent's own continuation:`);
      expect(own.stderr).toContain(`The parent episode of run ${parent.runId} has no judge scores`);
      expect(readFileSync(join(sweep.path, 'report.md'), 'utf8')).toContain('has no judge scores, so the judge');
    }
    const report = await parleyCliInProcess(['report', sweep.path, '--parent', r.path], cleanEnv());
    expect(report.stderr).not.toContain('has no judge scores');
    expect(report.stdout).toMatch(/fork turn 4 \(2 fork\(s\)\)/);
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toContain(`forks of ${parent.runId}/${parent.episodeId} beside the parent's own continuation:`);
    expect(report.stdout).toMatch(/fork turn 2 \(2 fork\(s\)\): success: forks .* · parent .* · effect .*; turns: forks 8\.00 .*\(2\) · parent 8\.00 · effect 0\.00/);
    expect(report.stdout).toMatch(/fork turn 6 \(2 fork\(s\)\): .*goal: forks \d+\.\d+ \[[-\d.]+, [-\d.]+\] \(2\) · parent \d+\.\d+ · effect [-+]?\d/);
    const md = readFileSync(join(sweep.path, 'report.md'), 'utf8');
    expect(md).toContain('## Forks beside the parent');
    expect(md).toContain('Changes from the parent: agent2: openai:gpt-3.5-turbo → openai:gpt-4o.');
    for (const at of [2, 6]) {
      expect(md).toMatch(new RegExp(`\\| ${at} \\| 2 \\| 0 \\| goal \\| [\\d.]+ \\[[-\\d.]+, [-\\d.]+\\] \\(2\\) \\| [\\d.]+ \\| [-+]?[\\d.]+ \\[`));
      expect(md).toMatch(new RegExp(`\\| ${at} \\| 2 \\| 0 \\| goal \\(agent2\\) \\|`));
    }
    const charts = readdirSync(join(sweep.path, 'charts'));
    expect(charts).toEqual(expect.arrayContaining(['fork-effect-goal.svg', 'fork-effect-success.svg', 'fork-effect-turns.svg']));
    const svg = readFileSync(join(sweep.path, 'charts', 'fork-effect-goal.svg'), 'utf8');
    expect(svg).toContain('>t=2<');
    expect(svg).toContain('>t=6<');
    // A run that is not a fork of R is refused with one line.
    const wrong = await parleyCliInProcess(['report', r.path, '--parent', sweep.path], cleanEnv());
    expect(wrong.code).toBe(2);
    expect(wrong.stderr.trim()).toMatch(/^parley report: .* holds no forked episode/);
  });

  it('a fork resumes (nothing left to play) and replays from its cassettes with no server', async () => {
    const again = await parleyCliInProcess(['fork', r.path, parent.episodeId, '--at', '4', '--agent2', 'openai:gpt-4o', '--repeats', '3', '--out', f.path], cleanEnv(server.env()));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/3 episode\(s\) recorded .* \(3 from an earlier invocation\)/);
    await server.close();
    const count = server.requests.length;
    const replay = await parleyRunInProcess(['--replay', f.path, '--concurrency', '1', '--out', f2.path], cleanEnv());
    expect(replay.code, replay.stderr).toBe(0);
    expect(turnsById(readEpisodes(f2.path))).toEqual(turnsById(readEpisodes(f.path)));
    expect(server.requests.length).toBe(count);
  });

  it('contract 3: a fork turn past the end, an unknown episode, a parent without ledgers, a prefix-altering change: one line, exit 2, no directory', async () => {
    const before = snapshot(r.path);
    const out = join(none.path, 'G');
    const cases = [
      { args: ['fork', r.path, parent.episodeId, '--at', '999'], line: /^parley fork: fork turn 999 is past the end of episode .* it played 8 turn\(s\)/ },
      { args: ['fork', r.path, 'no-such-episode', '--at', '2'], line: /^parley fork: .* has no episode "no-such-episode"/ },
      { args: ['fork', r.path, parent.episodeId, '--at', '999', '--out', out], line: /past the end/ },
      { args: ['fork', r.path, 'no-such-episode', '--at', '2', '--out', out], line: /no episode "no-such-episode"/ },
      { args: ['fork', r.path, '../../etc', '--at', '2', '--out', out], line: /no episode "\.\.\/\.\.\/etc"/ },
      { args: ['fork', r.path, parent.episodeId, '--at', '4', '--scenarios', 'other.jsonl', '--out', out], line: /--scenarios other\.jsonl would change the replayed prefix/ },
      { args: ['fork', r.path, parent.episodeId, '--at', '4', '--modes', 'mindreaders', '--out', out], line: /--modes mindreaders would change the replayed prefix/ },
      { args: ['fork', r.path, parent.episodeId, '--at', '6', '--max-turns', '5', '--out', out], line: /would have ended after turn 4 \(max_turns\), before the fork turn 6/ },
      { args: ['fork', r.path, parent.episodeId, '--at', '8', '--out', out], line: /ends after turn 7 \(max_turns\) .* nothing is left to play from turn 8 \(raise --max-turns/ },
    ];
    // A parent without ledgers (copied without them).
    const bare = join(none.path, 'bare');
    cpSync(r.path, bare, { recursive: true });
    rmSync(join(bare, 'ledgers'), { recursive: true });
    cases.push({ args: ['fork', bare, parent.episodeId, '--at', '2', '--out', out], line: /keeps no ledger for seat agent1 of episode .*: a fork replays what each seat was told/ });
    for (const c of cases) {
      const run = await parleyCliInProcess(c.args, cleanEnv());
      expect(run.code, c.args.join(' ')).toBe(2);
      expect(run.stdout).toBe('');
      const lines = run.stderr.trim().split('\n');
      expect(lines, c.args.join(' ')).toHaveLength(1);
      expect(lines[0]).toMatch(c.line);
      expect(existsSync(out)).toBe(false);
    }
    expect(snapshot(r.path)).toEqual(before);
  });
});
