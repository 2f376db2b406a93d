import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlmServer, type FakeLlmServer } from '../testkit/fake-llm-server.js';
import { parley, tempDir, within, type CliProcess } from './helpers/processes.js';
import { CLI_GUARD_MS } from './setup/guards.js';
import { botRunFixture, copyOf } from './helpers/run-fixture.js';
import { cleanEnv } from './llm-run-helpers.js';

/**
 * Issue 37 for `parley compare`: every verdict is durable the moment it returns. A live compare of 20 pairs
 * against a judge answering in 300 ms, sent SIGINT once after 5 verdicts: exit 130, every verdict returned
 * is in the verdicts file, and `--missing` judges only the rest (same order draw, no pair asked twice).
 * A second SIGINT quits at once; the journal keeps what returned and `--missing` takes it up.
 */
const tmp = tempDir('compare-interrupt');
let server: FakeLlmServer;
let source: string;
const VERDICTS = 'compare-script-vs-agents.jsonl';

beforeAll(async () => {
  server = await startFakeLlmServer({ default: { kind: 'plausible', delayMs: 300 } });
  // Multiplexed (a few agent processes instead of one per seat: 5.7 -> 2.2 CPU-s): this file is about the
  // compare's verdicts, not about how the run it judges placed its seats. The same run
  // test/eval-interrupt.test.ts judges, built once for both (helpers/run-fixture.ts).
  source = await botRunFixture(['--modes', 'script,agents', '--multiplex']);
});
afterAll(async () => {
  await server.close();
  tmp.remove();
});

const env = () => cleanEnv(server.env());
const args = (dir: string, extra: string[] = []) => ['compare', dir, dir, '--mode-a', 'script', '--mode-b', 'agents', '--judge', 'openai:gpt-4', '--orders', 'one', ...extra];
/** Progress lines (`judged N/T pairs`) counted on stderr: each is one verdict returned. */
const returned = (p: CliProcess) => Math.max(0, ...p.stderr.map((l) => Number(/^judged (\d+)\/\d+ pairs/.exec(l)?.[1] ?? 0)));
const keysIn = (file: string): string[] =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { key: string }).key)
    : [];
const savedOf = (p: CliProcess) => Number(/(\d+) judged and saved; resume with `--missing`/.exec(p.stderr.join('\n'))?.[1]);

function copyRun(name: string): string {
  const dir = join(tmp.path, name);
  return copyOf(source, dir);
}

describe('Ctrl-C during a live compare', () => {
  it('one SIGINT after 5 verdicts: exit 130, all returned saved, --missing judges only the rest', async () => {
    const dir = copyRun('once');
    const cmp = parley(args(dir), { env: env() });
    await within(cmp.line(/^judged 5\/20 pairs/), 60_000, 'five verdicts', [cmp]);
    cmp.child.kill('SIGINT');
    const atSignal = returned(cmp);
    expect(await within(cmp.exited, 60_000, 'compare to stop', [cmp])).toBe(130);
    const saved = savedOf(cmp);
    expect(saved).toBe(returned(cmp));
    expect(saved).toBeGreaterThanOrEqual(atSignal);
    expect(saved).toBeLessThan(20);
    // In the verdicts file itself; no journal left behind by a first Ctrl-C.
    const first = keysIn(join(dir, VERDICTS));
    expect(first.length).toBe(saved);
    expect(existsSync(join(dir, `${VERDICTS}.journal`))).toBe(false);

    const before = server.requests.length;
    const rest = parley(args(dir, ['--missing']), { env: env() });
    expect(await within(rest.exited, CLI_GUARD_MS, 'compare --missing', [rest])).toBe(0);
    expect(rest.stderr.join('\n')).toContain(`${saved} pairs already judged`);
    // Only the other pairs were asked: one request each (one order).
    expect(server.requests.length - before).toBe(20 - saved);
    const all = keysIn(join(dir, VERDICTS));
    expect(new Set(all).size).toBe(20);
    expect(all.length).toBe(20);
    expect(all.filter((k) => first.includes(k)).length).toBe(saved);
  }, 240_000);

  it('a second SIGINT quits at once and loses nothing that returned', async () => {
    const dir = copyRun('twice');
    const cmp = parley(args(dir, ['--concurrency', '8']), { env: env() });
    await within(cmp.line(/^judged 5\/20 pairs/), 60_000, 'five verdicts', [cmp]);
    cmp.child.kill('SIGINT');
    await within(cmp.line(/^interrupted: no new judge calls/), 10_000, 'the first stop', [cmp]);
    cmp.child.kill('SIGINT');
    expect(await within(cmp.exited, 10_000, 'compare to quit', [cmp])).toBe(130);
    const saved = savedOf(cmp);
    expect(saved).toBeGreaterThanOrEqual(5);
    expect(saved).toBe(returned(cmp));
    // The verdicts file was not written; the journal holds every verdict that returned.
    expect(keysIn(join(dir, `${VERDICTS}.journal`)).length).toBe(saved);

    // A fresh compare would start over: refused while the journal is there, nothing written.
    const fresh = parley(args(dir), { env: env() });
    expect(await within(fresh.exited, CLI_GUARD_MS, 'compare without --missing', [fresh])).toBe(2);
    expect(fresh.stderr.join('\n')).toContain('add --missing');

    const rest = parley(args(dir, ['--missing']), { env: env() });
    expect(await within(rest.exited, CLI_GUARD_MS, 'compare --missing', [rest])).toBe(0);
    expect(rest.stderr.join('\n')).toContain(`${saved} pairs already judged`);
    expect(existsSync(join(dir, `${VERDICTS}.journal`))).toBe(false);
    expect(new Set(keysIn(join(dir, VERDICTS))).size).toBe(20);
  }, 240_000);
});
