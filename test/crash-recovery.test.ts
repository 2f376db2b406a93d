import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readCassette } from '../llm/index.js';
import type { EpisodeRecord } from '../protocol/index.js';
import type { Episode } from '../orchestrator/episode.js';
import { RunConfig, type RunConfigInput } from '../orchestrator/run-config.js';
import { runExperiment } from '../orchestrator/run/driver.js';
import type { RunProbes } from '../orchestrator/run/run-probes.js';
import { startFakeLlmServer, reply } from '../testkit/fake-llm-server.js';
import { tempDir } from './helpers/processes.js';

/**
 * Crash recovery (runs-at-scale contract, point 3) with real agent processes: one agent process is
 * SIGKILLed (or SIGSTOPped) mid-episode; the run completes, the affected episode is recovered — or
 * recorded as failed with the reason — run.json counts it, and the other episodes are unaffected.
 */
describe('crash recovery of agent processes', () => {
  const tmp = tempDir('recovery');
  afterAll(() => tmp.remove());

  const ledger = (dir: string, ep: string, seat: string) =>
    readFileSync(join(dir, 'ledgers', ep, `${seat}.jsonl`), 'utf8').split('\n').filter(Boolean);
  const runJson = (dir: string) => JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'));
  const chatter = (delayMs: number) => [{ spec: 'bot:chatter', params: { delayMs } }];

  /** Runs with a hook that calls `kill(episode, turn, seat)` after every accepted move. */
  async function runWithKill(name: string, config: Partial<RunConfigInput>, kill: (ep: Episode, turn: number, seat: string) => void, extra: RunProbes = {}) {
    const out = join(tmp.path, name);
    const episodes = new Map<string, Episode>();
    const logs: string[] = [];
    const result = await runExperiment(RunConfig.parse({ scenarios: 'builtin', out, ...config }), {
      log: (l) => logs.push(l),
      hosting: 'local',
    }, {
      ...extra,
      episodePrepared: (e) => episodes.set(e.plan.episodeId, e),
      engine: { moveAccepted: (id, turn, seat) => kill(episodes.get(id)!, turn, seat) },
    });
    return { out, result, logs };
  }

  const otherSeat = (ep: Episode, seat: string) => [...ep.links.keys()].find((s) => s !== seat)!;

  /**
   * A kill hook that, once, after the move of turn `atTurn`, sends `signal` to the process of the other
   * seat, the one asked next, while it is being asked; `victim()` says which (and fails if none was hit).
   */
  function signalNextSeat(atTurn: number, signal: NodeJS.Signals) {
    let victim: { episodeId: string; seat: string; pid: number; turn: number } | null = null;
    return {
      kill: (ep: Episode, turn: number, seat: string) => {
        if (victim || turn !== atTurn) return;
        const next = otherSeat(ep, seat);
        victim = { episodeId: ep.plan.episodeId, seat: next, pid: ep.links.get(next)!.client!.pid!, turn: turn + 1 };
        process.kill(victim.pid, signal);
      },
      victim: () => {
        expect(victim).not.toBeNull();
        return victim!;
      },
    };
  }

  it('SIGKILL of a seat process mid-episode: the seat is re-established from its ledger on a fresh process and the episode completes', async () => {
    // The seat that must answer turn 6 dies while it is being asked.
    const hook = signalNextSeat(5, 'SIGKILL');
    const { out, result, logs } = await runWithKill('sigkill', { modes: ['mindreaders'], agents: chatter(15), concurrency: 3, limit: 5, maxTurns: 12 }, hook.kill);
    const k = hook.victim();
    expect(result.ran).toHaveLength(5);
    expect(result.ran.filter((r) => r.status !== 'ok').map((r) => r.errors)).toEqual([]);
    const hit = result.ran.find((r) => r.episodeId === k.episodeId)!;
    expect(hit.turns).toHaveLength(12);
    expect(hit.termination.reason).toBe('max_turns');
    expect(hit.recoveries).toEqual([{ seat: k.seat, lostPid: k.pid, reason: expect.stringMatching(/exited \(SIGKILL\)/), turn: k.turn, atMs: expect.any(Number) }]);
    const seat = hit.seats.find((s) => s.seat === k.seat)!;
    expect(seat.pids).toEqual([k.pid, seat.pid]);
    expect(seat.pid).not.toBe(k.pid);
    // Other episodes: no recovery, one process per seat.
    for (const r of result.ran.filter((x) => x !== hit)) {
      expect(r.recoveries).toBeUndefined();
      for (const s of r.seats) expect(s.pids).toEqual([s.pid]);
    }
    // Isolation still holds: the replacement hosts no other seat of the episode.
    const [a, b] = hit.seats;
    expect(a!.pids!.filter((p) => b!.pids!.includes(p))).toEqual([]);
    // The replacement received the same frames its predecessor had (welcome, peer.state, turn events).
    const lines = ledger(out, k.episodeId, k.seat);
    const welcomes = lines.flatMap((l, i) => (l.includes('"type":"seat.welcome"') ? [i] : []));
    expect(welcomes).toHaveLength(2);
    const before = lines.slice(0, welcomes[1]).filter((l) => /"type":"(seat\.welcome|peer\.state|turn\.event)"/.test(l));
    expect(before.filter((l) => l.includes('"turn.event"'))).toHaveLength(k.turn);
    // Byte for byte except the welcome's resume secret, which rotates with every rejoin (issue 11).
    const withoutSecret = (l: string) => l.replace(/"resume":"[0-9A-Za-z]+"/, '"resume":"…"');
    expect(lines.slice(welcomes[1], welcomes[1]! + before.length).map(withoutSecret)).toEqual(before.map(withoutSecret));
    expect(lines[welcomes[1]!]).not.toBe(lines[welcomes[0]!]);
    // ...then the pending turn request, and the episode went on.
    expect(JSON.parse(lines[welcomes[1]! + before.length]!)).toMatchObject({ type: 'turn.request', turn: k.turn });
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ type: 'episode.end', reason: 'max_turns' });
    // run.json counts it; the log says what happened.
    expect(runJson(out).stats).toMatchObject({ episodes: { total: 5, ok: 5, failed: 0 }, recoveries: { seats: 1, episodes: 1 } });
    expect(logs.some((l) => l.includes(`${k.episodeId}/${k.seat}`) && /re-established on agent process \d+/.test(l))).toBe(true);
  });

  it('a hung seat process (SIGSTOP) is detected by the heartbeat, killed and replaced', async () => {
    const hook = signalNextSeat(3, 'SIGSTOP');
    const { result } = await runWithKill('sigstop', { modes: ['agents'], agents: chatter(5), concurrency: 2, limit: 3, maxTurns: 10 }, hook.kill, {
      // Short enough to find the stopped process fast, long enough that a healthy process descheduled on a
      // loaded 2-core machine is not taken for hung (500 ms once killed the other seat too, under load 15).
      connection: { heartbeatIntervalMs: 200, heartbeatTimeoutMs: 2_500 },
    });
    const stopped = hook.victim();
    const hit = result.ran.find((r) => r.episodeId === stopped.episodeId)!;
    expect(hit.status).toBe('ok');
    expect(hit.turns).toHaveLength(10);
    expect(hit.recoveries).toEqual([expect.objectContaining({ seat: stopped.seat, lostPid: stopped.pid, reason: expect.stringMatching(/exited \(SIGKILL\)/) })]);
    expect(result.ran.every((r) => r.status === 'ok')).toBe(true);
  });

  it('an LLM seat killed while waiting for its model is recovered; its cassette continues, so --replay reproduces the episode', async () => {
    await using llm = await startFakeLlmServer({ default: reply.plausible(40) });
    process.env.PARLEY_TEST_FAKE_KEY = 'x';
    const agents = [{ spec: 'openai:fake-model', baseURL: llm.openaiBaseURL, apiKeyEnv: 'PARLEY_TEST_FAKE_KEY' }];
    const hook = signalNextSeat(1, 'SIGKILL');
    const { out, result } = await runWithKill('llm-seat', { modes: ['agents'], agents, concurrency: 2, limit: 2, maxTurns: 8 }, hook.kill).finally(() => delete process.env.PARLEY_TEST_FAKE_KEY);
    const k = hook.victim();
    const hit = result.ran.find((r) => r.episodeId === k.episodeId)!;
    expect(hit.status).toBe('ok');
    expect(hit.recoveries).toHaveLength(1);
    // One cassette entry per move of the seat, numbered on across the two processes.
    const tape = readCassette(join(out, 'cassettes', k.episodeId, `${k.seat}.jsonl`))!;
    expect(tape.map((e) => e.seq)).toEqual(hit.turns.filter((t) => t.seat === k.seat).map((_, i) => i));
    // Replaying the run (no server needed) reproduces every move of the recovered episode.
    const again = await runExperiment(RunConfig.parse({ scenarios: 'builtin', out: join(tmp.path, 'llm-seat-replay'), modes: ['agents'], agents, concurrency: 2, limit: 2, maxTurns: 8, replay: out }), { log: () => {}, hosting: 'local' });
    const replayed = again.ran.find((r) => r.episodeId === k.episodeId)!;
    expect(replayed.status).toBe('ok');
    expect(replayed.turns.map((t) => t.action)).toEqual(hit.turns.map((t) => t.action));
  });

  it('an LLM script writer killed mid-request is not asked twice: the episode is recorded as failed with the reason, the run goes on', async () => {
    await using llm = await startFakeLlmServer();
    const episodes = new Map<string, Episode>();
    let killedPid = 0;
    llm.enqueue(() => {
      // The first script request: kill the process that is waiting for it, and never answer.
      const writer = [...episodes.values()].find((e) => e.plan.mode === 'script')!;
      killedPid = writer.links.get('script')!.client!.pid!;
      process.kill(killedPid, 'SIGKILL');
      return reply.hang();
    });
    const out = join(tmp.path, 'llm-writer');
    // The agent processes inherit this process's environment: the key variable is named per seat.
    process.env.PARLEY_TEST_FAKE_KEY = 'x';
    const scriptWriter = { spec: 'openai:fake-model', baseURL: llm.openaiBaseURL, apiKeyEnv: 'PARLEY_TEST_FAKE_KEY' };
    const result = await runExperiment(
      RunConfig.parse({ scenarios: 'builtin', out, modes: ['script', 'agents'], scriptWriter, concurrency: 1, limit: 4, maxTurns: 8 }),
      { log: () => {}, hosting: 'local' },
      { episodePrepared: (e) => episodes.set(e.plan.episodeId, e) },
    ).finally(() => delete process.env.PARLEY_TEST_FAKE_KEY);
    expect(killedPid).toBeGreaterThan(0);
    expect(result.ran).toHaveLength(4);
    const [first, ...rest] = result.ran as EpisodeRecord[];
    expect(first!.mode).toBe('script');
    expect(first!.status).toBe('failed');
    expect(first!.termination).toMatchObject({ reason: 'disconnect', seat: 'script' });
    expect(first!.termination.detail).toMatch(new RegExp(`agent process ${killedPid} exited \\(SIGKILL\\); not recovered: an LLM script writer is not asked twice`));
    expect(rest.map((r) => r.status)).toEqual(['ok', 'ok', 'ok']);
    expect(runJson(out).stats).toMatchObject({ episodes: { total: 4, ok: 3, failed: 1 }, recoveries: { seats: 0, episodes: 0 } });
  });
});
