import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgementOf } from '../evaluator/testing/fake-judge.js';
import { episode, mfScenario, type MoveSpec, writeRunDir } from '../evaluator/testing/fixtures.js';
import { type Mode } from '../protocol/index.js';
import { PAPER_PROTOCOL } from '../simulation/index.js';
import type { Scenario } from '../scenarios/model.js';
import { parleyInProcess } from './helpers/in-process-parley.js';
import { tempDir, within } from './helpers/processes.js';

/**
 * Issue 20: `parley report LEAKY --against CORRECTED`, as a user runs it (the real CLI in a child
 * process), over two paper-protocol run directories written with the run-dir writers: one whose script
 * writer and mindreaders got the MutualFriends answer (examples/paper.yaml's leakJudgeOnly), one without
 * (paper-corrected.yaml). The numbers are chosen so every statistic can be checked by hand:
 *
 *   goal, leaky:     script 9.5, mindreaders 8.5, agents 6.5 → advantages 3 and 2
 *   goal, corrected: script 7.5, mindreaders 6.5, agents 6.5 → advantages 1 and 0
 *   explained share: script (3 − 1) / 3 = 67%, mindreaders (2 − 0) / 2 = 100%
 *   first mention (5 moves, position = index / 4), leaky script 0 and corrected script 0.5, agents 0.75
 *   in both → script names the friend earlier by 0.75 with the leak, 0.25 without: 67% explained.
 */

const GPT = 'openai:gpt-3.5-turbo-0613';
const SCENARIOS: Scenario[] = ['mf-1', 'mf-2', 'mf-3', 'mf-4'].map((id) => mfScenario(id));

function judged(goal: number) {
  const judge = { spec: 'openai:gpt-4-0613', provider: 'openai', model: 'gpt-4-0613', visibility: 'full', temperature: 0, promptVersion: 'p', view: 'paper' };
  return { v: 1, judge: judgementOf(judge, ['a', 'b'], (d) => (d === 'goal' ? goal : d === 'secret' || d === 'social_rules' ? 0 : 1)) };
}

/** Five moves naming the shared friend first at move `at`. */
function moves(at: number): MoveSpec[] {
  return [0, 1, 2, 3, 4].map((i) => [i % 2 ? 'b' : 'a', 'speak', i === at ? 'Do you know Jane Doe?' : i > at ? 'Jane Doe, yes.' : 'Who do you know?']);
}

async function runDir(runId: string, leak: boolean, cells: Record<Mode, { goals: number[]; at: number }>) {
  const records = (Object.keys(cells) as Mode[]).flatMap((mode) =>
    SCENARIOS.map((scenario, i) => episode({ scenario, mode, runId, moves: moves(cells[mode].at), evaluation: judged(cells[mode].goals[i]!), models: [GPT, GPT], writer: GPT })),
  );
  return writeRunDir(SCENARIOS, records, {
    runId,
    config: { scenarios: 'S.jsonl', modes: ['script', 'agents', 'mindreaders'], seed: 1, maxTurns: 20, protocol: 'paper', leakJudgeOnly: leak ? ['script', 'mindreaders'] : [] },
    protocol: { ...PAPER_PROTOCOL, leakJudgeOnly: leak ? ['script', 'mindreaders'] : [] },
  });
}

let leaky: string;
let corrected: string;

beforeAll(async () => {
  leaky = await runDir('paper-gpt', true, {
    script: { goals: [9, 10, 9, 10], at: 0 },
    mindreaders: { goals: [8, 9, 8, 9], at: 1 },
    agents: { goals: [6, 7, 6, 7], at: 3 },
  });
  corrected = await runDir('paper-corrected-gpt', false, {
    script: { goals: [7, 8, 7, 8], at: 2 },
    mindreaders: { goals: [6, 7, 6, 7], at: 3 },
    agents: { goals: [6, 7, 6, 7], at: 3 },
  });
});
afterAll(() => {
  for (const d of [leaky, corrected]) if (d) rmSync(d, { recursive: true, force: true });
});

async function report(args: string[]) {
  return within(parleyInProcess(['report', ...args]), 50_000, `parley report ${args.join(' ')}`);
}

describe('parley report LEAKY --against CORRECTED', () => {
  it('says in words, with intervals, how much of script and mindreaders mode\'s advantage the leaked answer explains', async () => {
    const { code, stdout, stderr } = await report([leaky, '--against', corrected]);
    expect(code, stderr.join('\n')).toBe(0);
    const line = (start: string) => stdout.find((l) => l.startsWith(start)) ?? `(no line starting ${start}:\n${stdout.join('\n')})`;
    const scriptGoal = line('Goal (the judge, 0–10), script against agents');
    expect(scriptGoal).toMatch(/with the leaked answer script mode scores above agents mode by 3\.00 \[[\d.]+, [\d.]+\] \(4 script, 4 agents episodes\), and without it by 1\.00 \[[\d.-]+, [\d.]+\] \(4, 4\)\./);
    expect(scriptGoal).toMatch(/Closing the leak lowers the advantage by 2\.00 \[[\d.]+, [\d.]+\]\./);
    expect(scriptGoal).toMatch(/The leaked answer explains 67% \[\d+%, \d+%\] of the advantage\./);
    // The mindreaders' corrected advantage is 0 (the same goals as agents mode): all of the advantage is the leak's.
    expect(line('Goal (the judge, 0–10), mindreaders against agents')).toMatch(/by 2\.00 .*without it by 0\.00 .*explains 100% \[\d+%, \d+%\]/);
    expect(line('First mention of the shared friend (0 = first move, 1 = last), script against agents')).toMatch(/script mode names the shared friend earlier than agents mode by 0\.75 .*without it by 0\.25 .*explains 67%/);
    // Every episode names the friend, so success is 1 everywhere: no advantage to explain, said so.
    expect(line('MutualFriends success (the shared friend named, appendix G), script against agents')).toContain('is not defined: no advantage in the leaky run');
    expect(stdout.some((l) => /not a leak comparison|caution/i.test(l))).toBe(false);

    const folder = path.join(leaky, 'reports', `against-${path.basename(corrected)}`);
    const md = readFileSync(path.join(folder, 'report.md'), 'utf8');
    expect(md).toContain('## What the leaked answer explains');
    expect(md).toContain(`- ${scriptGoal}`);
    // Beside it, the advantage the paper printed for GPT-3.5 (runs with the leak), from published.json.
    expect(md).toContain("- The paper's own MutualFriends first mention advantage of script over agents (gpt-3.5-turbo, with the leak): 0.39 − 0.13 = 0.26, as printed (§4.4");
    // Table 2's goal: its halves contradict §4.3's prose, so the report shows both readings and says so (issue 42).
    expect(md).toContain("goal advantage of script over agents (gpt-3.5-turbo, with the leak): 7.6 − 5.86 = 1.74, as printed (Appendix D, Table 2");
    expect(md).toMatch(/The paper contradicts that table's labels: .* the advantage is 7\.75 − 6 = 1\.75 .*both are shown, neither is chosen\./);
    expect(readFileSync(path.join(folder, 'report.html'), 'utf8')).toContain('What the leaked answer explains');
    // The run's own report is not replaced by the comparison.
    expect(existsSync(path.join(leaky, 'report.md'))).toBe(false);
  });

  it('says when the pair is not a leak comparison (the runs swapped), and refuses ambiguous invocations', async () => {
    const swapped = await report([corrected, '--against', leaky, '--out', path.join(corrected, 'swapped')]);
    expect(swapped.code, swapped.stderr.join('\n')).toBe(0);
    expect(swapped.stdout).toContain('not a leak comparison for script: the leaky run did not send the answer to the script writer (leakJudgeOnly: []).');
    expect(swapped.stdout).toContain('not a leak comparison for mindreaders: the leaky run did not send the answer to the mindreaders (leakJudgeOnly: []).');
    expect(readFileSync(path.join(corrected, 'swapped', 'report.md'), 'utf8')).toContain('**Not a leak comparison for script:**');

    const two = await report([leaky, corrected, '--against', corrected]);
    expect(two.code).not.toBe(0);
    expect(two.stderr.join('\n')).toContain('--against compares one leaky run (or experiment folder) with its corrected twin');
    const mode = await report([leaky, '--against', corrected, '--mode', 'script']);
    expect(mode.code).not.toBe(0);
    expect(mode.stderr.join('\n')).toContain('--mode would leave some out');
    const over = await report([leaky, '--against', corrected, '--out', corrected]);
    expect(over.code).not.toBe(0);
    expect(over.stderr.join('\n')).toContain("would overwrite that run's own report");
  });

  it('compares two experiment folders arm by arm (examples/paper.yaml and paper-corrected.yaml write runs/<name>/<arm>)', async () => {
    const tmp = tempDir('leak-arms');
    try {
      for (const [from, to] of [[leaky, 'paper/gpt-3.5'], [corrected, 'paper-corrected/gpt-3.5'], [leaky, 'paper/mixtral'], [corrected, 'paper-corrected/mixtral']] as const) {
        mkdirSync(path.dirname(path.join(tmp.path, to)), { recursive: true });
        cpSync(from, path.join(tmp.path, to), { recursive: true });
      }
      const { code, stdout, stderr } = await report([path.join(tmp.path, 'paper'), '--against', path.join(tmp.path, 'paper-corrected')]);
      expect(code, stderr.join('\n')).toBe(0);
      expect(stdout.filter((l) => l.startsWith('arm '))).toEqual(['arm gpt-3.5:', 'arm mixtral:']);
      expect(stdout.filter((l) => l.includes('The leaked answer explains 67% ['))).toHaveLength(4);
      for (const arm of ['gpt-3.5', 'mixtral']) {
        const md = readFileSync(path.join(tmp.path, 'paper', arm, 'reports', `against-paper-corrected-${arm}`, 'report.md'), 'utf8');
        expect(md).toContain(`# Parley report: paper against paper-corrected (arm ${arm})`);
        expect(md).toContain('## What the leaked answer explains');
      }
      // An arm without its twin is named, and nothing is compared against a wrong run.
      rmSync(path.join(tmp.path, 'paper-corrected', 'mixtral'), { recursive: true });
      const missing = await report([path.join(tmp.path, 'paper'), '--against', path.join(tmp.path, 'paper-corrected')]);
      expect(missing.code).not.toBe(0);
      expect(missing.stderr.join('\n')).toContain(`no run for arm mixtral of ${path.join(tmp.path, 'paper')}`);
    } finally {
      tmp.remove();
    }
  });
});
