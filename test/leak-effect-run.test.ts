import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parleyInProcess } from './helpers/in-process-parley.js';
import { reply, startFakeLlmServer, type FakeLlmServer, type ReceivedRequest } from '../testkit/fake-llm-server.js';
import { tempDir } from './helpers/processes.js';
import { sotopiaMiniDir } from './helpers/reference-data.js';
import { cleanEnv, parleyCliInProcess, parleyRunInProcess } from './llm-run-helpers.js';

/**
 * Issue 20, the leak report end to end: `parley run --protocol paper` twice on the SOTOPIA-shaped
 * fixture's MutualFriends instance — once with the answer leaked to the script writer and the
 * mindreaders (examples/paper.yaml's `leakJudgeOnly`), once without — then `parley eval` and
 * `parley report --against`, every generator and the judge an `openai:` model on the fake server.
 *
 * The fake models act out the leak: a generator whose prompt holds the judge-only line ("They have 1
 * common friends: Rosa.") names Rosa at once; any other answers its usual plausible lines, which never
 * name her. The fake judge scores goal 9 when the conversation names Rosa, else 5. So the chain under test
 * is the real one — the leak reaches the prompts, the moves carry it, the judge reads the transcript,
 * the report computes the advantage — and its numbers are known: with the leak, script and mindreaders
 * mode beat agents mode by 4 goal points and 1.0 success; without it, by 0; the leak explains all of it.
 */
const ANSWER_LINE = 'They have 1 common friends: Rosa.';
const text = (q: ReceivedRequest) => (q.body.messages ?? []).map((m) => String(m.content)).join('\n');

function fakeModels(q: ReceivedRequest) {
  const all = text(q);
  if (all.includes('rate how well each participant reached their goals')) {
    const seatsLine = all.split('\n').find((l) => l.includes('one entry per participant')) ?? '';
    const seats = [...seatsLine.matchAll(/"([^"]+)" \(/g)].map((m) => m[1]!);
    // The conversation's lines only (the context above it names Rosa in the judge-only text and the friend lists).
    const named = all.split('\n').some((l) => / said: "/.test(l) && l.includes('Rosa'));
    const dims = ['believability', 'relationship', 'knowledge', 'secret', 'social_rules', 'financial_and_material_benefits', 'goal'];
    const scores = Object.fromEntries(dims.map((d) => [d, { reasoning: `${d} read`, score: d === 'goal' ? (named ? 9 : 5) : 0 }]));
    return reply.text(JSON.stringify({ evaluations: Object.fromEntries(seats.map((s) => [s, scores])) }));
  }
  if (!all.includes(ANSWER_LINE)) return reply.plausible();
  if (/^Participants: .+ and .+$/m.test(all) && /Turn #x/.test(all)) {
    const [, a, b] = /^Participants: (.+) and (.+)$/m.exec(all)!;
    return reply.text(`Turn #0\n${a} said: "Do you know Rosa, from Harbor College?"\nTurn #1\n${b} said: "Rosa! Yes, she is my friend too."\nTurn #2\n${a} left the conversation`);
  }
  return reply.text(JSON.stringify({ action_type: 'speak', argument: 'Is Rosa your friend too?' }));
}

describe('the leak report over two real paper runs (issue 20)', () => {
  const tmp = tempDir('leak-effect-run');
  const scenarios = join(tmp.path, 'S.jsonl');
  let server: FakeLlmServer;

  beforeAll(async () => {
    server = await startFakeLlmServer({ default: fakeModels });
    expect((await parleyInProcess(['scenarios', 'import', 'sotopia', sotopiaMiniDir(), '--out', scenarios])).code).toBe(0);
  });
  afterAll(async () => {
    await server.close();
    tmp.remove();
  });

  it('runs, judges and reports: the leaked answer explains all of script and mindreaders mode\'s advantage', async () => {
    const env = cleanEnv(server.env());
    for (const [name, leak] of [['leaky', ['--leak-judge-only', 'script,mindreaders']], ['corrected', []]] as const) {
      const out = join(tmp.path, name);
      // --multiplex: seats of different episodes share warm agent processes (never two of one episode); the leak
      // measured here is what prompts carry, not how seats are hosted.
      const run = await parleyRunInProcess([
        '--scenarios', scenarios, '--subset', 'mutual_friends', '--protocol', 'paper', '--selection', 'all', '--modes', 'script,agents,mindreaders', '--repeats', '2',
        '--max-turns', '4', '--concurrency', '2', '--multiplex', '--agent1', 'openai:gpt-3.5-turbo-0613', '--agent2', 'openai:gpt-3.5-turbo-0613',
        '--script-writer', 'openai:gpt-3.5-turbo-0613', '--judge', 'openai:gpt-4-0613', ...leak, '--out', out,
      ], env, 120_000);
      expect(run.code, run.stderr).toBe(0);
      const evaluated = await parleyCliInProcess(['eval', out], env);
      expect(evaluated.code, evaluated.stderr).toBe(0);
    }
    // The leak reached only the leaky run's script writer and mindreaders.
    const leakedTo = server.requests.filter((q) => text(q).includes(ANSWER_LINE) && !text(q).includes('rate how well'));
    expect(leakedTo.length).toBeGreaterThan(0);

    const report = await parleyCliInProcess(['report', join(tmp.path, 'leaky'), '--against', join(tmp.path, 'corrected')], env);
    expect(report.code, report.stderr).toBe(0);
    const line = (start: string) => report.stdout.split('\n').find((l) => l.startsWith(start)) ?? `(no line ${start} in:\n${report.stdout})`;
    for (const mode of ['script', 'mindreaders']) {
      expect(line(`Goal (the judge, 0–10), ${mode} against agents`)).toMatch(
        new RegExp(`with the leaked answer ${mode} mode scores above agents mode by 4\\.00 \\[4\\.00, 4\\.00\\] \\(\\d+ ${mode}, \\d+ agents episodes\\), and without it by 0\\.00 .*The leaked answer explains 100% \\[100%, 100%\\] of the advantage\\.`),
      );
      expect(line(`MutualFriends success (the shared friend named, appendix G), ${mode} against agents`)).toMatch(/above agents mode's by 1\.00 .*explains 100% \[100%, 100%\]/);
      // Agents mode never names Rosa: no first mention to compare.
      expect(line(`First mention of the shared friend (0 = first move, 1 = last), ${mode} against agents`)).toContain('not defined: the leaky run has no MutualFriends episode with this metric in');
    }
    const md = readFileSync(join(tmp.path, 'leaky', 'reports', 'against-corrected', 'report.md'), 'utf8');
    expect(md).toContain('## What the leaked answer explains');
    expect(md).not.toMatch(/Not a leak comparison|\*\*Caution/);
  }, 300_000);
});
