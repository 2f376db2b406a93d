import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { episode, openScenario, writeRunDir } from '../evaluator/testing/fixtures.js';
import { judgeCliSuite, judgeInRange } from './helpers/judge-cli-suite.js';

/**
 * Issue 38, contract 2: two runs over the same 10 scenarios (a "fine-tuned" one whose first seat says it
 * is moving, and a "base" one), both judged by the same judge through `parley eval` against the fake
 * server, then `parley report A B --paired --out DIR`: one report.md and report.html in DIR with the paired
 * differences and their intervals for goal.
 */
// The judge's goal for seat a: 8 or 9 when the transcript says "Lisbon", else 5 or 6 (by scenario number): A − B = +3 on seat a.
const suite = judgeCliSuite('parley-paired-', (req) => {
  const text = JSON.stringify(req.body.messages);
  const lisbon = text.includes('Lisbon');
  const odd = /\((\d)\)/.exec(text)?.[1];
  const bump = odd && Number(odd) % 2 ? 1 : 0;
  return judgeInRange((d, seat, min, max) => (d === 'goal' ? (seat === 'a' ? (lisbon ? 8 : 5) + bump : 4) : Math.max(min, Math.min(max, 0))))(req);
});
const { tmp: work, cli: run } = suite;

/** A run of one agents episode per scenario s-0 … s-9; `moving` runs have seat a announce the move. */
async function runOver10(runId: string, moving: boolean): Promise<string> {
  const scenarios = Array.from({ length: 10 }, (_, i) => openScenario(`s-${i}`));
  return suite.keep(
    await writeRunDir(
      scenarios,
      scenarios.map((s, i) => episode({ scenario: s, runId, moves: [['a', 'speak', moving ? `I am moving to Lisbon (${i}).` : `Nice meal (${i}).`], ['b', 'speak', 'Can you lend me money?']] })),
    ),
  );
}

describe('parley report A B --paired (issue 38, contract 2)', () => {
  it('writes one report with paired differences and intervals for goal', async () => {
    const [a, b] = [await runOver10('ft', true), await runOver10('base', false)];
    for (const d of [a, b]) {
      const ev = await run(['eval', d, '--judge', 'openai:gpt-4']);
      expect(ev.code, ev.stderr).toBe(0);
    }
    const out = path.join(work.path, 'paired');
    const rep = await run(['report', a, b, '--paired', '--out', out]);
    expect(rep.code, rep.stderr).toBe(0);
    expect(rep.stdout).toMatch(/agents goal: A − B = 1\.50 \[1\.50, 1\.50\] over 10 pairs, p = 0\.002/);
    const md = readFileSync(path.join(out, 'report.md'), 'utf8');
    // Goal per episode is the mean of seat a (8/9 vs 5/6) and seat b (4): A − B = 1.5 in every pair.
    expect(md).toMatch(/^\| agents \| goal \| 10 \| 6\.25 \| 4\.75 \| \+1\.50 \[1\.50, 1\.50\] \| 0\.002 \| \S+ above \S+ by 1\.50 \|$/m);
    expect(md).toContain('## Paired differences');
    expect(existsSync(path.join(out, 'report.html'))).toBe(true);
    const html = readFileSync(path.join(out, 'report.html'), 'utf8');
    expect(html).toContain('<svg');
    expect(html).toContain('How to cite');
    expect(existsSync(path.join(out, 'charts', 'paired-differences.svg'))).toBe(true);

    // By seat: seat a's goal differs by 3 in every pair, seat b's by 0.
    const bySeat = await run(['report', a, b, '--paired', '--by', 'seat', '--out', path.join(work.path, 'by-seat')]);
    expect(bySeat.code, bySeat.stderr).toBe(0);
    expect(readFileSync(path.join(work.path, 'by-seat', 'report.md'), 'utf8')).toMatch(/^\| agents \| goal \| 20 \| 6\.25 \| 4\.75 \| \+1\.50 \[\d\.\d+, \d\.\d+\] \|/m);
  });

  it('refuses one run, the same run twice, or an unknown --by, writing nothing', async () => {
    const [a] = [await runOver10('x', true)];
    for (const args of [[a, '--paired'], [a, a, '--paired'], [a, a + '/', '--paired'], [a, work.path, '--paired', '--by', 'turn']]) {
      const r = await run(['report', ...args, '--out', path.join(work.path, 'never')]);
      expect(r.code, args.join(' ')).toBe(2);
    }
    expect(existsSync(path.join(work.path, 'never'))).toBe(false);
  });
});
