import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parleyInProcess } from './helpers/in-process-parley.js';
import { auditRun } from './helpers/audit.js';
import { auditSeatPairs } from './helpers/group-audit.js';
import { tempDir } from './helpers/processes.js';
import { botRunSuite } from './helpers/bot-run-suite.js';

const readJsonl = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));

interface Turn { turn: number; seat: string; action: { type: string } | null }

/** The seat order a round-robin episode must follow: seat order, past seats that left. */
function roundRobin(seats: string[], turns: Turn[]): string[] {
  const left = new Set<string>();
  const out: string[] = [];
  let last: string | null = null;
  for (const t of turns) {
    const from = last === null ? -1 : seats.indexOf(last);
    let next = seats[(from + 1) % seats.length]!;
    for (let i = 2; left.has(next) && i <= seats.length + 1; i++) next = seats[(from + i) % seats.length]!;
    out.push(next);
    if (t.action?.type === 'leave') left.add(t.seat);
    last = t.seat;
  }
  return out;
}

/** Issue 23, contract 1: the built-in group scenarios in every mode, with the real CLI and built-in bots. */
describe('parley run --scenarios builtin --subset groups --modes script,agents,mindreaders', () => {
  const bots = botRunSuite('groups-run', ['--subset', 'groups', '--modes', 'script,agents,mindreaders']);
  const { tmp, out } = bots;

  it('records three-seat episodes of the three group tasks in every mode, each to a task end', () => {
    const { code, stderr } = bots.result;
    expect(stderr.join('\n')).toBe('');
    expect(code).toBe(0);
    const records = readJsonl(join(out, 'episodes.jsonl'));
    expect(records).toHaveLength(9);
    for (const r of records) {
      expect(r.status).toBe('ok');
      expect(r.seats.map((s: { seat: string }) => s.seat)).toEqual(['agent1', 'agent2', 'agent3']);
      expect(r.termination.reason).toBe('task_end');
    }
    const outcomes = Object.fromEntries(records.filter((r) => r.mode === 'agents').map((r) => [r.outcome.kind, r.outcome]));
    expect(outcomes.mutual_friends).toMatchObject({ success: true });
    expect(Object.values(outcomes.mutual_friends.selections)).toHaveLength(3);
    expect(outcomes.auction).toMatchObject({ sold: true, winner: expect.stringMatching(/^agent[23]$/), price: expect.any(Number) });
    expect(outcomes.split).toMatchObject({ passed: true });
    expect(Object.values(outcomes.split.shares as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(90);
  });

  it('agents and mindreaders: every seat in its own process, turns cycling through all three seats', () => {
    const audit = auditRun(out);
    expect(audit.violations).toEqual([]);
    for (const r of readJsonl(join(out, 'episodes.jsonl')).filter((e) => e.mode !== 'script')) {
      const pids = r.seats.map((s: { pid: number }) => s.pid);
      expect(new Set(pids).size).toBe(3);
      const seats = r.seats.map((s: { seat: string }) => s.seat);
      expect(r.turns.map((t: Turn) => t.seat)).toEqual(roundRobin(seats, r.turns));
      expect(r.turns.slice(0, 3).map((t: Turn) => t.seat)).toEqual(['agent1', 'agent2', 'agent3']);
    }
  });

  it('the fine-tuning export renders script-mode turns for every seat (one example per seat turn, from that seat\'s view)', async () => {
    const ft = join(tmp.path, 'ft.jsonl');
    const p = await parleyInProcess(['export', out, '--format', 'openai-chat', '--mode', 'script', '--out', ft]);
    expect(p.code).toBe(0);
    const index = readJsonl(join(tmp.path, 'ft.index.jsonl')) as Array<{ seat: string; episodeId: string }>;
    const scriptTurns = readJsonl(join(out, 'episodes.jsonl')).filter((r) => r.mode === 'script').reduce((n, r) => n + r.turns.length, 0);
    expect(index).toHaveLength(scriptTurns);
    expect(new Set(index.map((i) => i.seat))).toEqual(new Set(['agent1', 'agent2', 'agent3']));
  });

  it('agents: no ledger holds another seat\'s goal or secret, verbatim or as four content words; mindreaders: each holds the other two goals', () => {
    const audit = auditSeatPairs(out);
    expect(audit.violations).toEqual([]);
    // 3 scenarios × 2 live modes × 3 readers × 2 others; mindreaders delivered all 18 pairs.
    expect(audit.pairs).toBe(36);
    expect(audit.deliveries).toBe(18);
  });

  /**
   * The tools around a run, on these same three-seat episodes (one run serves both: what show, --seat and
   * the transcript pages claim holds for any recorded group episode, and a run of its own cost a whole
   * `parley run` and its nine agent processes). Last in this describe: the report writes into the run.
   */
  describe('show and transcripts for three seats', () => {
    it('show names all three seats and each group outcome; --seat agent3 prints the third ledger', async () => {
      const records = readJsonl(join(out, 'episodes.jsonl'));
      const scenarios = new Map(readJsonl(join(out, 'scenarios.jsonl')).map((s) => [s.id, s]));
      const show = await parleyInProcess(['show', out]);
      expect(show.code).toBe(0);
      const text = show.stdout.join('\n');
      for (const r of records) for (const seat of scenarios.get(r.scenarioId).seats) expect(text).toContain(`${seat.seat}: ${seat.character.name}`);
      expect(text).toMatch(/^outcome: sold to .+ for \$\d+$/m);
      expect(text).toMatch(/^outcome: split passed \(proposed by .+\): .+ \d+, .+ \d+, .+ \d+$/m);
      // An agents-mode episode: every seat there kept a ledger of its own.
      const live = records.find((r) => r.mode === 'agents');
      const third = await parleyInProcess(['show', out, live.episodeId, '--seat', 'agent3']);
      expect(third.code).toBe(0);
      expect(third.stdout[0]).toContain(`${live.episodeId} · seat agent3 ·`);
      expect(third.stdout.join('\n')).toContain('seat.welcome');
    });

    it('the report writes a transcript page per episode naming its three characters', async () => {
      const report = await parleyInProcess(['report', out]);
      expect(report.code).toBe(0);
      const scenarios = new Map(readJsonl(join(out, 'scenarios.jsonl')).map((s) => [s.id, s]));
      for (const r of readJsonl(join(out, 'episodes.jsonl'))) {
        const page = readFileSync(join(out, 'transcripts', `${r.episodeId}.html`), 'utf8');
        for (const seat of scenarios.get(r.scenarioId).seats) expect(page).toContain(seat.character.name);
      }
    });
  });
});

/** Issue 23, contract 2: directed, partial mindreading. */
describe("parley run --subset groups --modes mindreaders --mindread 'agent1<-agent2'", () => {
  const tmp = tempDir('groups-mindread');
  const out = join(tmp.path, 'R');
  let code: number | null;

  beforeAll(async () => {
    const p = await parleyInProcess(['run', '--scenarios', 'builtin', '--subset', 'groups', '--modes', 'mindreaders', '--mindread', 'agent1<-agent2', '--out', out]);
    code = p.code;
  });
  afterAll(() => tmp.remove());

  it("agent1's ledger holds agent2's goal (in a peer.state frame); no other ledger holds a goal or secret not its own", () => {
    expect(code).toBe(0);
    const audit = auditSeatPairs(out, { agent1: ['agent2'] });
    expect(audit.violations).toEqual([]);
    expect(audit.deliveries).toBe(3);
    expect(audit.pairs).toBe(18);
  });

  it('records the map in run.json (protocol and config) and on the simulation card', async () => {
    const run = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'));
    expect(run.config.mindread).toBe('agent1<-agent2');
    expect(run.protocol.mindread).toEqual({ agent1: ['agent2'] });
    const report = await parleyInProcess(['report', out]);
    expect(report.code).toBe(0);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('agent1 reads agent2');
  });

  it('--dry-run names the map', async () => {
    const p = await parleyInProcess(['run', '--scenarios', 'builtin', '--subset', 'groups', '--modes', 'mindreaders', '--mindread', 'agent1<-agent3,agent2', '--dry-run', '--out', join(tmp.path, 'plan')]);
    expect(p.code).toBe(0);
    expect(p.stdout).toContain('  mindreaders mode reads only along --mindread: agent1<-agent2,agent3');
  });

  it('an unknown seat in the map is one clear line and exit status 2, before anything runs', async () => {
    const bad = join(tmp.path, 'bad');
    const p = await parleyInProcess(['run', '--scenarios', 'builtin', '--subset', 'groups', '--modes', 'mindreaders', '--mindread', 'agent1<-agent9', '--out', bad]);
    expect(p.code).toBe(2);
    expect(p.stderr.filter((l) => l.trim() !== '')).toEqual([expect.stringMatching(/--mindread: unknown seat agent9 \(the scenarios' seats: agent1, agent2, agent3\)/)]);
  });
});
