import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EpisodeRecord } from '../protocol/index.js';
import { builtinScenarios } from '../scenarios/builtin.js';
import { writeScenarioFile } from '../scenarios/load.js';
import type { Scenario } from '../scenarios/model.js';
import { tempDir } from './helpers/processes.js';
import { cleanEnv, parleyRunInProcess, readEpisodes } from './llm-run-helpers.js';
import { parleyCliInProcess, readJsonl, type ChatLine, type IndexLine } from './training-helpers.js';

/**
 * Issue 14, contract points 2 and 3, on an offline bot run (script, agents and mindreaders modes, two
 * repeats) over scenarios whose judge-only text carries a canary: script turns rendered into the
 * `agents` view never hold the partner's secret or goal nor judge-only text, into the `mindreaders` view
 * they hold the partner's goal; `--min` and `--top-per-scenario` select what a hand computation over
 * episodes.jsonl selects; `--split` never puts a scenario in both files.
 */
const DIMS = { believability: [0, 10], relationship: [-5, 5], knowledge: [0, 10], secret: [-10, 0], social_rules: [-10, 0], financial_and_material_benefits: [-5, 5], goal: [0, 10] } as const;

/** A judge's evaluation in the record format, with the given goal score per seat (other dimensions at their minimum). */
function evaluation(goals: Record<string, number | 'error'>) {
  const seats = Object.fromEntries(
    Object.entries(goals).map(([seat, goal]) => [
      seat,
      goal === 'error'
        ? { ok: false, error: { code: 'judge/bad_json', message: 'unreadable', attempts: 2 } }
        : { ok: true, scores: Object.fromEntries(Object.entries(DIMS).map(([d, [min]]) => [d, { reasoning: 'r', score: d === 'goal' ? goal : min }])) },
    ]),
  );
  return { v: 1, judge: { judge: { spec: 'fake:judge', visibility: 'full', temperature: 0, promptVersion: 't' }, evaluatedAt: '2026-01-01T00:00:00Z', seats, calls: 1, usage: { prompt: 1, completion: 1 }, latencyMs: 1 } };
}

const key = (episodeId: string, seat: string) => `${episodeId}/${seat}`;
const keys = (ix: IndexLine[]) => [...new Set(ix.map((i) => key(i.episodeId, i.seat)))].sort();

describe('parley export --format openai-chat on script, agents and mindreaders episodes (issue 14: points 2, 3)', () => {
  const dir = tempDir('ft-script');
  let scenarios: Scenario[];
  let records: EpisodeRecord[];
  const env = cleanEnv();
  const exportTo = async (name: string, ...flags: string[]) => {
    const out = join(dir.path, `${name}.jsonl`);
    const r = await parleyCliInProcess(['export', dir.path, '--format', 'openai-chat', '--out', out, ...flags], env);
    expect(r.code, r.stderr).toBe(0);
    return { r, out, lines: () => readJsonl<ChatLine>(out), index: (suffix = '') => readJsonl<IndexLine>(join(dir.path, `${name}${suffix}.index.jsonl`)) };
  };

  beforeAll(async () => {
    const builtin = builtinScenarios(1);
    scenarios = [builtin[0]!, builtin[10]!].map((s) => ({ ...s, judgeOnly: `${s.judgeOnly} JUDGE-ONLY-CANARY-${s.id}` }));
    const file = join(dir.path, 'scenarios-in.jsonl');
    await writeScenarioFile(file, scenarios);
    // --multiplex: seats of different episodes share agent processes (never two of one episode); the export
    // reads the records and ledgers, which hosting does not change.
    const run = await parleyRunInProcess(['--scenarios', file, '--modes', 'script,agents,mindreaders', '--repeats', '2', '--concurrency', '2', '--multiplex', '--max-turns', '8', '--out', dir.path], env, 120_000);
    expect(run.code, run.stderr).toBe(0);
    // Judge scores, written as `parley eval` writes them: one episode unevaluated, one seat with a judge error.
    records = readEpisodes(dir.path);
    expect(records).toHaveLength(12);
    const lines = readFileSync(join(dir.path, 'episodes.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    lines.forEach((rec, i) => {
      if (i === 0) return;
      const goals: Record<string, number | 'error'> = {};
      rec.seats.forEach((s: { seat: string }, j: number) => (goals[s.seat] = i === 1 && j === 1 ? 'error' : (i * 5 + j * 3) % 11));
      rec.evaluation = evaluation(goals);
    });
    writeFileSync(join(dir.path, 'episodes.jsonl'), lines.map((l) => JSON.stringify(l) + '\n').join(''));
    records = readEpisodes(dir.path);
  });
  afterAll(() => dir.remove());

  it('--view agents: script turns never carry the partner secret or goal, nor judge-only text; --view mindreaders: the partner goal', async () => {
    const agents = await exportTo('script-agents', '--mode', 'script', '--view', 'agents', '--keep-duplicates');
    const mind = await exportTo('script-mind', '--mode', 'script', '--view', 'mindreaders', '--keep-duplicates');
    const scriptTurns = records.filter((r) => r.mode === 'script').reduce((n, r) => n + r.turns.length, 0);
    for (const exp of [agents, mind]) {
      expect(exp.lines()).toHaveLength(scriptTurns);
      expect(new Set(exp.index().map((i) => i.mode))).toEqual(new Set(['script']));
    }
    const check = (lines: ChatLine[], index: IndexLine[], view: 'agents' | 'mindreaders') => {
      lines.forEach((line, i) => {
        const ix = index[i]!;
        const scenario = scenarios.find((s) => s.id === ix.scenarioId)!;
        const own = scenario.seats.find((s) => s.seat === ix.seat)!;
        const partner = scenario.seats.find((s) => s.seat !== ix.seat)!;
        const text = line.messages.slice(0, -1).map((m) => m.content).join('\n');
        expect(text).toContain(own.goal.trim());
        expect(text).not.toContain('JUDGE-ONLY-CANARY');
        expect(text).not.toContain(scenario.judgeOnly.trim());
        if (view === 'agents') {
          expect(text).not.toContain(partner.goal.trim());
          expect(text).not.toContain(partner.character.secret.trim());
        } else {
          expect(text).toContain(partner.goal.trim());
        }
      });
    };
    check(agents.lines(), agents.index(), 'agents');
    check(mind.lines(), mind.index(), 'mindreaders');
    // By default an example repeating an earlier one exactly (the bots write the same script twice) is dropped, and counted.
    const deduped = await exportTo('script-dedup', '--mode', 'script');
    const unique = new Set(agents.lines().map((l) => JSON.stringify(l)));
    expect(deduped.lines()).toHaveLength(unique.size);
    expect(deduped.r.stdout).toContain(`duplicate examples dropped: ${scriptTurns - unique.size}`);
  });

  it('--min goal=7 selects exactly the (episode, seat) pairs a hand computation over episodes.jsonl selects, and counts exclusions', async () => {
    const exp = await exportTo('min', '--min', 'goal=7', '--keep-duplicates');
    const clean = (r: EpisodeRecord) => r.status === 'ok' && r.errors.length === 0 && r.turns.every((t) => !t.error);
    const goalOf = (r: EpisodeRecord, seat: string): number | null => {
      const j = (r.evaluation as { judge?: { seats: Record<string, { ok: boolean; scores?: { goal: { score: number } } }> } } | undefined)?.judge?.seats[seat];
      return j?.ok ? j.scores!.goal.score : null;
    };
    const expected = records.flatMap((r) => (clean(r) ? r.seats.filter((s) => (goalOf(r, s.seat) ?? -1) >= 7).map((s) => key(r.episodeId, s.seat)) : [])).sort();
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(records.length * 2 - 3);
    expect(keys(exp.index())).toEqual(expected);
    // The unevaluated episode and the failed seat evaluation are excluded and counted, not silently dropped.
    expect(exp.r.stdout).toMatch(/episode not evaluated ×2/);
    expect(exp.r.stdout).toMatch(/seat evaluation failed ×1/);
  });

  it('--top-per-scenario 1 keeps, per scenario and seat, the best goal score (ties: first episode id), as computed by hand', async () => {
    const exp = await exportTo('top', '--top-per-scenario', '1', '--by', 'goal', '--keep-duplicates');
    const best = new Map<string, { episodeId: string; goal: number }>();
    for (const r of records) {
      if (!r.evaluation || r.status !== 'ok' || r.errors.length) continue;
      for (const s of r.seats) {
        const j = (r.evaluation as { judge: { seats: Record<string, { ok: boolean; scores?: { goal: { score: number } } }> } }).judge.seats[s.seat]!;
        if (!j.ok) continue;
        const goal = j.scores!.goal.score;
        const k = `${r.scenarioId}/${s.seat}`;
        const cur = best.get(k);
        if (!cur || goal > cur.goal || (goal === cur.goal && r.episodeId < cur.episodeId)) best.set(k, { episodeId: r.episodeId, goal });
      }
    }
    const expected = [...best.entries()].map(([k, v]) => key(v.episodeId, k.split('/')[1]!)).sort();
    expect(expected).toHaveLength(4); // 2 scenarios × 2 seats
    expect(keys(exp.index())).toEqual(expected);
  });

  it('--split 0.9 --seed 1 writes train and validation files with no scenario in both, the same for the same seed', async () => {
    const a = await exportTo('split', '--split', '0.9', '--seed', '1');
    const train = readJsonl<IndexLine>(join(dir.path, 'split.train.index.jsonl'));
    const validation = readJsonl<IndexLine>(join(dir.path, 'split.validation.index.jsonl'));
    expect(train.length).toBeGreaterThan(0);
    expect(validation.length).toBeGreaterThan(0);
    const trainScenarios = new Set(train.map((i) => i.scenarioId));
    for (const v of validation) expect(trainScenarios.has(v.scenarioId)).toBe(false);
    expect(readJsonl(join(dir.path, 'split.train.jsonl'))).toHaveLength(train.length);
    expect(readJsonl(join(dir.path, 'split.validation.jsonl'))).toHaveLength(validation.length);
    expect(a.r.stdout).toMatch(/tokens per example \(cl100k_base\): p50 \d+, max \d+/);
    expect(a.r.stdout).toMatch(/estimated training cost for openai:gpt-3\.5-turbo-0125 × 3 epochs: \$\d+\.\d\d/);
    const again = await exportTo('split2', '--split', '0.9', '--seed', '1');
    expect(readFileSync(join(dir.path, 'split2.train.jsonl'), 'utf8')).toBe(readFileSync(join(dir.path, 'split.train.jsonl'), 'utf8'));
    expect(again.r.code).toBe(0);
  });
});
