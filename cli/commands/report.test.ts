import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { episode, mfScenario, writeRunDir } from '../../evaluator/testing/fixtures.js';
import { validReply } from '../../evaluator/testing/fake-judge.js';
import { run } from './report.js';

const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function judgement(visibility: 'full' | 'blind', goal: number) {
  const reply = validReply(['a', 'b'], { score: (d) => (d === 'goal' ? goal : 0) }) as { evaluations: Record<string, unknown> };
  return {
    judge: { spec: 'openai:gpt-4', model: 'gpt-4', visibility, temperature: 0, promptVersion: 'p' },
    evaluatedAt: '2024-01-01T00:00:00.000Z',
    seats: Object.fromEntries(['a', 'b'].map((s) => [s, { ok: true, scores: reply.evaluations[s] }])),
    calls: 1,
    usage: { prompt: 1, completion: 1 },
    latencyMs: 1,
  };
}

async function twoRuns() {
  const mf = mfScenario();
  const full = judgement('full', 8);
  const blind = judgement('blind', 4);
  const evaluation = { v: 1, judge: full, variants: { 'openai:gpt-4 full': full, 'openai:gpt-4 blind': blind } };
  const a = await writeRunDir([mf], [
    episode({ scenario: mf, mode: 'script', runId: 'run-a', moves: [['a', 'speak', 'hi']], evaluation }),
    episode({ scenario: mf, mode: 'agents', runId: 'run-a', moves: [['a', 'speak', 'hello']], evaluation }),
  ]);
  const b = await writeRunDir([mf], [episode({ scenario: mf, mode: 'agents', runId: 'run-b', models: ['openai:gpt-4', 'openai:gpt-4'], moves: [['a', 'speak', 'yo']] })]);
  dirs.push(a, b);
  const asked = { judge: 'openai:gpt-4-0613', question: 'paper' };
  writeFileSync(path.join(a, 'compare-script-vs-agents.jsonl'), [{ ok: true, winner: 'A', ...asked }, { ok: true, winner: 'B', ...asked }, { ok: true, winner: 'A', ...asked }].map((v) => JSON.stringify(v)).join('\n') + '\n');
  return { a, b };
}

const quiet = () => vi.spyOn(console, 'log').mockImplementation(() => {});

describe('parley report', () => {
  it('writes each run its own report by default, and a combined one only into a named folder', async () => {
    const { a, b } = await twoRuns();
    quiet();
    expect(await run([a, b])).toBe(0);
    expect(readFileSync(path.join(a, 'report.md'), 'utf8')).toContain('run-a');
    expect(readFileSync(path.join(a, 'report.md'), 'utf8')).not.toContain('run-b');
    expect(readFileSync(path.join(b, 'report.md'), 'utf8')).toContain('run-b');
    const combined = path.join(a, '..', `${path.basename(a)}-combined`);
    dirs.push(combined);
    expect(await run([a, b, '--out', combined])).toBe(0);
    const md = readFileSync(path.join(combined, 'report.md'), 'utf8');
    expect(md).toContain('run-a');
    expect(md).toContain('run-b');
    await expect(run([a, b, '--out', a])).rejects.toThrow(/would overwrite that run's own report/);
  });

  it('puts judge variants and compare verdicts side by side', async () => {
    const { a } = await twoRuns();
    // A verdict file written before verdicts recorded their judge and question.
    writeFileSync(path.join(a, 'compare-mindreaders-vs-agents.jsonl'), JSON.stringify({ ok: true, winner: 'B' }) + '\n');
    quiet();
    await run([a]);
    const md = readFileSync(path.join(a, 'report.md'), 'utf8');
    expect(md).toContain('## Judge variants side by side');
    expect(md).toMatch(/\| agents \| openai:gpt-4 blind \| 0 \|.*\| 4\.00 \(2\) \|$/m);
    expect(md).toMatch(/\| agents \| openai:gpt-4 full \| 0 \|.*\| 8\.00 \(2\) \|$/m);
    expect(md).toContain('## Naturalness verdicts (parley compare)');
    // Files from before both orders: one order, wins of A and B, no ties, no consistency figure.
    expect(md).toMatch(/\| script \| agents \| openai:gpt-4-0613, paper question \| one \| 3 \| 2 \| 1 \| 0 \| 66\.7% \[[^|]+\| — \(one order\) \|/);
    expect(md).toMatch(/\| mindreaders \| agents \| — \| one \| 1 \| 0 \| 1 \| 0 \| 0\.0% \[/);
  });

  it('--human: the study beside the LLM judge verdicts of RUN_A, with their agreement', async () => {
    const { a, b } = await twoRuns();
    // The judge's verdicts with pair keys: k1 A, k2 B, k3 A; the humans' majority: k1 A, k2 A, k3 A.
    writeFileSync(path.join(a, 'compare-script-vs-agents.jsonl'), [['k1', 'A'], ['k2', 'B'], ['k3', 'A']].map(([key, winner]) => JSON.stringify({ key, ok: true, winner })).join('\n') + '\n');
    const answer = (annotator: string, key: string, winner: string) =>
      JSON.stringify({ v: 1, at: '2024-01-01T00:00:00Z', annotator, key, scenarioId: 's', runA: a, runB: b, episodeA: 'x', episodeB: 'y', aShownFirst: true, winner });
    const ann = path.join(a, 'ann.jsonl');
    writeFileSync(ann, ['k1', 'k2', 'k3'].map((k) => answer('ann', k, 'A')).join('\n') + '\n');
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((l: string) => void lines.push(l));
    expect(await run([a, '--human', ann])).toBe(0);
    expect(lines.join('\n')).toMatch(/humans vs LLM judge: 66\.7% agreement, Cohen's kappa .* over 3 pair\(s\)/);
    expect(readFileSync(path.join(a, 'report.md'), 'utf8')).toMatch(/humans vs LLM judge: 66\.7% agreement/);
  });

  it('--probes refuses the flags it would not apply (filters, title, the other comparisons)', async () => {
    const { a, b } = await twoRuns();
    const probes = path.join(a, 'probes.jsonl');
    for (const [extra, named] of [
      [['--mode', 'agents'], '--mode'],
      [['--subset', 'hard', '--model', 'gpt'], '--subset, --model'],
      [['--title', 'T', '--selection', 'all'], '--selection, --title'],
      [['--human', probes], '--human'],
      [['--paired', '--by', 'scenario'], '--paired, --by'],
      [['--parent', b], '--parent'],
      [['--against', b], '--against'],
    ] as const) {
      await expect(run([a, '--probes', probes, ...extra])).rejects.toThrow(`--probes reports every answer of the probe file: ${named} would not apply`);
    }
    // Without them the probes report starts: it reads the run (here a fixture it cannot read as a probed run).
    await expect(run([a, '--probes', probes])).rejects.toThrow(/run\.json: /);
  });

  it('filters by mode, subset and model', async () => {
    const { a, b } = await twoRuns();
    quiet();
    await run([a, '--mode', 'script']);
    const md = readFileSync(path.join(a, 'reports', 'mode-script', 'report.md'), 'utf8');
    expect(md).toMatch(/^1 episodes\./m);
    await run([b, '--model', 'gpt-4', '--subset', 'mutual_friends']);
    expect(existsSync(path.join(b, 'reports', 'subset-mutual_friends_model-gpt-4', 'report.md'))).toBe(true);
    await expect(run([a, '--model', 'mixtral'])).rejects.toThrow(/no episode matches model-mixtral/);
  });
});
