import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EpisodeRecord } from '../protocol/index.js';
import { RunConfig } from '../orchestrator/run-config.js';
import { runExperiment, type RunResult } from '../orchestrator/run/driver.js';
import { auditRun } from './helpers/audit.js';
import { tempDir } from './helpers/processes.js';
import { CANARY, craigslistFixture, mutualFriendsFixture, openFixture } from './fixtures/scenarios.js';

/**
 * Isolation (episode network contract, point 3) with planted canaries, in every mode, over real agent
 * processes and real sockets: the scenarios carry unique strings in each seat's goal and secret and in
 * the judge-only text, and every ledger file is searched for them afterwards.
 */
describe('isolation canaries in every mode (real agent processes, port 0)', () => {
  const tmp = tempDir('isolation');
  let result: RunResult;
  const ledgerText = (ep: EpisodeRecord, seat: string) => readFileSync(join(tmp.path, 'run', 'ledgers', ep.episodeId, `${seat}.jsonl`), 'utf8');
  const lines = (ep: EpisodeRecord, seat: string) => ledgerText(ep, seat).split('\n').filter(Boolean);

  beforeAll(async () => {
    const file = join(tmp.path, 'canary-scenarios.jsonl');
    writeFileSync(file, [mutualFriendsFixture(), craigslistFixture(), openFixture(3)].map((s) => JSON.stringify(s)).join('\n') + '\n');
    const config = RunConfig.parse({ scenarios: file, modes: ['script', 'agents', 'mindreaders'], out: join(tmp.path, 'run'), concurrency: 3, turnDeadlineMs: 20_000 });
    result = await runExperiment(config, { log: () => {}, hosting: 'local' });
  });
  afterAll(() => tmp.remove());

  it('ran every episode to a normal end', () => {
    expect(result.records).toHaveLength(9);
    expect(result.records.filter((r) => r.status !== 'ok').map((r) => [r.episodeId, r.errors])).toEqual([]);
  });

  it('agents mode: no ledger holds the partner goal or secret', () => {
    const eps = result.records.filter((r) => r.mode === 'agents');
    expect(eps).toHaveLength(3);
    for (const ep of eps) {
      expect(ledgerText(ep, 'A')).toContain(CANARY.goalA); // own goal is there: the search is not vacuous
      for (const c of [CANARY.goalB, CANARY.secretB]) expect(ledgerText(ep, 'A')).not.toContain(c);
      for (const c of [CANARY.goalA, CANARY.secretA]) expect(ledgerText(ep, 'B')).not.toContain(c);
      expect(ledgerText(ep, 'B')).not.toContain('PRIVATE-NOTE-FOR-A');
    }
  });

  it('mindreaders mode: the partner goal and secret arrive in a peer.state frame and nowhere before it', () => {
    const eps = result.records.filter((r) => r.mode === 'mindreaders');
    expect(eps).toHaveLength(3);
    for (const ep of eps) {
      for (const [seat, goal, secret] of [['A', CANARY.goalB, CANARY.secretB], ['B', CANARY.goalA, CANARY.secretA]] as const) {
        const ls = lines(ep, seat);
        const first = ls.findIndex((l) => l.includes(goal) || l.includes(secret));
        expect(first).toBeGreaterThan(0);
        expect(JSON.parse(ls[first]!).type).toBe('peer.state');
        expect(ls[first]).toContain(goal);
        expect(ls[first]).toContain(secret);
        // ...and it came before the first turn request.
        expect(first).toBeLessThan(ls.findIndex((l) => JSON.parse(l).type === 'turn.request'));
      }
    }
  });

  it('no ledger of any mode holds judge-only text (script writer included)', () => {
    const dirs = readdirSync(join(tmp.path, 'run', 'ledgers'));
    expect(dirs).toHaveLength(9);
    let files = 0;
    for (const d of dirs) {
      for (const f of readdirSync(join(tmp.path, 'run', 'ledgers', d))) {
        files += 1;
        expect(readFileSync(join(tmp.path, 'run', 'ledgers', d, f), 'utf8')).not.toContain('CANARY-JUDGE-ONLY');
      }
    }
    expect(files).toBe(3 * 1 + 6 * 2);
    // The script writer did see both sides (it writes both parts).
    const script = result.records.find((r) => r.mode === 'script' && r.scenarioId === 'fx-mf-1')!;
    expect(ledgerText(script, 'script')).toContain(CANARY.secretB);
  });

  it('seats of one episode ran in different processes, none of them the orchestrator', () => {
    const run = JSON.parse(readFileSync(join(tmp.path, 'run', 'run.json'), 'utf8'));
    expect(run.orchestrator.pid).toBe(process.pid);
    for (const ep of result.records) {
      const pids = ep.mode === 'script' ? [ep.scriptWriter!.pid] : ep.seats.map((s) => s.pid);
      for (const p of pids) expect(p).toEqual(expect.any(Number));
      expect(new Set(pids).size).toBe(pids.length);
      expect(pids).not.toContain(process.pid);
    }
  });

  it('passes the file-based audit an outside checker would run', () => {
    const audit = auditRun(join(tmp.path, 'run'));
    expect(audit.violations).toEqual([]);
    expect(audit.checked).toEqual({ ledgers: 15, peerStates: 6, episodes: 9, paraphraseSeats: 6, reveals: 0, whispers: 0, whisperDeliveries: 0, teamMessages: 0, privateMoves: 0, privateNotices: 0 });
  });
});
