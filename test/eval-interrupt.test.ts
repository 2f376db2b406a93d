import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRunDir } from '../evaluator/run-dir.js';
import { startFakeLlmServer, type FakeLlmServer } from '../testkit/fake-llm-server.js';
import { parley, tempDir, within, type CliProcess } from './helpers/processes.js';
import { CLI_GUARD_MS } from './setup/guards.js';
import { botRunFixture, copyOf } from './helpers/run-fixture.js';
import { cleanEnv } from './llm-run-helpers.js';

/**
 * Issue 37, contract 2: every judgement is durable the moment it returns. `eval` of a 40-episode run
 * against a judge answering in 300 ms, sent SIGINT once after 10 judgements returned: exit 130, every
 * judgement returned before the signal is in episodes.jsonl, and `eval --missing` judges only the rest.
 * A second SIGINT quits at once and still loses nothing that returned.
 */
const tmp = tempDir('eval-interrupt');
let server: FakeLlmServer;
let source: string;

beforeAll(async () => {
  server = await startFakeLlmServer({ default: { kind: 'plausible', delayMs: 300 } });
  // --multiplex: the run is what eval judges (the contract names only the eval), not a test of how its seats
  // were hosted; seats of different episodes share a bot process, never two seats of one. Script and agents
  // episodes of the 20 built-in scenarios (40, judged alike): the same run test/compare-interrupt.test.ts
  // compares, built once for both (helpers/run-fixture.ts).
  source = await botRunFixture(['--modes', 'script,agents', '--multiplex']);
});
afterAll(async () => {
  await server.close();
  tmp.remove();
});

const env = () => cleanEnv(server.env());
/** Progress lines (`judged N/40 episodes …`) counted on stderr: each is one judgement returned. */
const returned = (p: CliProcess) => Math.max(0, ...p.stderr.map((l) => Number(/^judged (\d+)\/\d+ episodes/.exec(l)?.[1] ?? 0)));

async function judgedIds(dir: string): Promise<Set<string>> {
  const loaded = await loadRunDir(dir);
  if (!loaded.ok) throw new Error(loaded.error.message);
  return new Set(loaded.run.episodes.filter((e) => (e.record.evaluation as { judge?: unknown } | undefined)?.judge).map((e) => e.record.episodeId));
}

function copyRun(name: string): string {
  const dir = join(tmp.path, name);
  // A fresh copy of the unjudged run for each case.
  for (const f of ['run.json', 'scenarios.jsonl', 'episodes.jsonl']) expect(existsSync(join(source, f))).toBe(true);
  return copyOf(source, dir);
}

describe('Ctrl-C during eval', () => {
  it('one SIGINT after 10 judgements: exit 130, all returned saved, --missing judges only the rest', async () => {
    const dir = copyRun('once');
    const evalp = parley(['eval', dir, '--judge', 'openai:gpt-4'], { env: env() });
    await within(evalp.line(/^judged 10\/40 episodes/), 60_000, 'ten judgements', [evalp]);
    evalp.child.kill('SIGINT');
    const atSignal = returned(evalp);
    const code = await within(evalp.exited, 60_000, 'eval to stop', [evalp]);
    expect(code).toBe(130);
    const out = [...evalp.stdout, ...evalp.stderr].join('\n');
    const saved = Number(/(\d+) judged and saved; resume with `--missing`/.exec(out)?.[1]);
    // In-flight calls finished after the signal and were saved too; nothing returned was dropped.
    expect(saved).toBe(returned(evalp));
    expect(saved).toBeGreaterThanOrEqual(atSignal);
    expect(saved).toBeLessThan(40);
    // Written into episodes.jsonl itself (no journal left behind by a first Ctrl-C).
    expect(existsSync(join(dir, 'judgements.journal.jsonl'))).toBe(false);
    const judged = await judgedIds(dir);
    expect(judged.size).toBe(saved);

    const rest = parley(['eval', dir, '--judge', 'openai:gpt-4', '--missing'], { env: env() });
    expect(await within(rest.exited, CLI_GUARD_MS, 'eval --missing', [rest])).toBe(0);
    const restOut = rest.stdout.join('\n');
    expect(restOut).toContain(`evaluated ${40 - saved} episodes`);
    expect(restOut).toContain(`${saved} already scored`);
    expect((await judgedIds(dir)).size).toBe(40);
  }, 240_000);

  it('a second SIGINT quits at once and loses nothing that returned', async () => {
    const dir = copyRun('twice');
    const evalp = parley(['eval', dir, '--judge', 'openai:gpt-4', '--concurrency', '8'], { env: env() });
    await within(evalp.line(/^judged 10\/40 episodes/), 60_000, 'ten judgements', [evalp]);
    evalp.child.kill('SIGINT');
    await within(evalp.line(/^interrupted: no new judge calls/), 10_000, 'the first stop', [evalp]);
    evalp.child.kill('SIGINT');
    expect(await within(evalp.exited, 10_000, 'eval to quit', [evalp])).toBe(130);
    const saved = Number(/(\d+) judged and saved; resume with `--missing`/.exec(evalp.stderr.join('\n'))?.[1]);
    expect(saved).toBeGreaterThanOrEqual(10);
    expect(saved).toBe(returned(evalp));
    // Whatever did not reach episodes.jsonl is in the journal, which every reader applies.
    expect((await judgedIds(dir)).size).toBe(saved);
    const rest = parley(['eval', dir, '--judge', 'openai:gpt-4', '--missing'], { env: env() });
    expect(await within(rest.exited, CLI_GUARD_MS, 'eval --missing', [rest])).toBe(0);
    expect(rest.stdout.join('\n')).toContain(`evaluated ${40 - saved} episodes`);
    expect(existsSync(join(dir, 'judgements.journal.jsonl'))).toBe(false);
    expect((await judgedIds(dir)).size).toBe(40);
  }, 240_000);
});
