import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { auditRun } from './helpers/audit.js';
import { parley, within } from './helpers/processes.js';
import { processSuite } from './helpers/process-suite.js';

/**
 * Remote seats (episode network contract, point 4): `parley serve` opens the seats of one episode and
 * prints their tokens; one `parley agent` per seat, started as a separate process, joins over the
 * network endpoint; the episode completes, is recorded, and serve exits 0.
 */
describe('parley serve + parley agent', () => {
  const suite = processSuite('serve');
  const { tmp, procs } = suite;

  it('runs one agents episode with remote agents and exits 0', async () => {
    const out = join(tmp.path, 'served');
    const serve = parley(['serve', '--port', '0', '--scenarios', 'builtin', '--modes', 'agents', '--limit', '1', '--out', out]);
    procs.push(serve);
    const [, url] = await serve.line(/^listening (ws:\/\/\S+)/);
    await vi.waitFor(() => expect(serve.stdout.filter((l) => l.startsWith('seat '))).toHaveLength(2), { timeout: 15_000 });
    const seats = serve.stdout.filter((l) => l.startsWith('seat ')).map((l) => {
      const m = /^seat (\S+) token (\S+)(?: url \S+)?$/.exec(l);
      expect(m, `line '${l}' has the form 'seat <seat-id> token <token>'`).not.toBeNull();
      return { seat: m![1]!, token: m![2]! };
    });
    expect(new Set(seats.map((s) => s.token)).size).toBe(2);
    // serve is waiting: nothing recorded before the agents come.
    expect(existsSync(join(out, 'episodes.jsonl'))).toBe(false);

    const agents = seats.map((s) => parley(['agent', '--url', url!, '--token', s.token, '--policy', 'bot']));
    procs.push(...agents);
    expect(await serve.exited).toBe(0);
    expect(await Promise.all(agents.map((a) => a.exited))).toEqual([0, 0]);

    const lines = readFileSync(join(out, 'episodes.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    const record = JSON.parse(lines[0]!);
    expect(record).toMatchObject({ mode: 'agents', status: 'ok', scenarioId: 'builtin-mf-01' });
    expect(record.seats.map((s: { seat: string }) => s.seat)).toEqual(seats.map((s) => s.seat));
    expect(record.seats.map((s: { policy: string }) => s.policy)).toEqual(['bot', 'bot']);
    const pids = record.seats.map((s: { pid: number }) => s.pid);
    expect(pids).toEqual(agents.map((a) => a.child.pid));
    expect(pids).not.toContain(serve.child.pid);
    expect(auditRun(out).violations).toEqual([]);
    expect(serve.stdout.some((l) => /agents\s+1 episodes/.test(l))).toBe(true);
    // Only the token lines start with `seat `, so tools can parse serve's output as a whole.
    expect(serve.stdout.filter((l) => l.startsWith('seat '))).toHaveLength(2);
  });

  it('refuses a token an agent already used: the second agent exits non-zero, naming the refusal', async () => {
    const out = join(tmp.path, 'served-twice');
    const serve = parley(['serve', '--port', '0', '--modes', 'agents', '--limit', '1', '--out', out]);
    procs.push(serve);
    const [, url] = await serve.line(/^listening (ws:\/\/\S+)/);
    await vi.waitFor(() => expect(serve.stdout.filter((l) => l.startsWith('seat '))).toHaveLength(2), { timeout: 15_000 });
    const tokens = serve.stdout.filter((l) => l.startsWith('seat ')).map((l) => l.split(' ')[3]!);
    const first = parley(['agent', '--url', url!, '--token', tokens[0]!, '--policy', 'bot']);
    procs.push(first);
    await within(serve.line(/^joined: /), 20_000, 'first agent joins', [serve, first]);
    const thief = parley(['agent', '--url', url!, '--token', tokens[0]!, '--policy', 'bot']);
    procs.push(thief);
    expect(await within(thief.exited, 20_000, 'thief refused', [serve, first, thief])).not.toBe(0);
    expect(thief.stderr.join('\n')).toMatch(/seat\/token_spent/);
    const second = parley(['agent', '--url', url!, '--token', tokens[1]!, '--policy', 'bot']);
    procs.push(second);
    expect(await within(serve.exited, 20_000, 'serve finishes', [serve, first, thief, second])).toBe(0);
    expect(await first.exited).toBe(0);
    expect(await second.exited).toBe(0);
  });
});
