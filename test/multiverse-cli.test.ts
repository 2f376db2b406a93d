import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parleyInProcess } from './helpers/in-process-parley.js';
import { tempDir } from './helpers/processes.js';

/**
 * `parley multiverse` as a user runs it (issue 43, contract items 1 and 4, offline): a claim on the
 * built-in bots over seed × protocol gives 8 specifications, a specification curve and the share line; the
 * same command again starts no episode; a claim file with an unknown axis is refused with its line.
 * maxTurns 8, not fewer: under the paper protocol an episode of 5 moves or fewer is re-drawn (SOTOPIA's
 * first-valid selection), so at 4 turns every paper arm re-drew each episode to the limit: 96 episodes and
 * ~120 agent processes (~20 s of CPU) where the claim plans 32.
 */
const CLAIM = `name: bots-success
claim:
  metric: success
  a: {modes: [script]}
  b: {modes: [agents]}
  expect: a > b
base:
  scenarios: builtin
  limit: 2
  maxTurns: 8
axes:
  seed: [1, 2, 3, 4]
  protocol: [paper, parley]
`;

describe('parley multiverse CLAIM --out DIR (bots, offline)', () => {
  const tmp = tempDir('multiverse');
  const claim = join(tmp.path, 'claim.yaml');
  const out = join(tmp.path, 'mv');
  let first: { code: number | null; stdout: string[]; stderr: string[] };

  beforeAll(async () => {
    writeFileSync(claim, CLAIM);
    first = await parleyInProcess(['multiverse', claim, '--out', out]);
    if (first.code !== 0) console.error(first.stderr.join('\n'));
  }, 300_000);
  afterAll(() => tmp.remove());

  it('--dry-run prints specifications and episodes and writes nothing', async () => {
    const dry = join(tmp.path, 'dry');
    const p = await parleyInProcess(['multiverse', claim, '--out', dry, '--dry-run']);
    expect(p.code).toBe(0);
    // 8 specifications; 16 distinct arms (each side of each specification) of 2 episodes each.
    expect(p.stdout.join('\n')).toMatch(/^8 specification\(s\), 16 distinct arm\(s\), 32 episode\(s\) planned/m);
    expect(existsSync(dry)).toBe(false);
  });

  it('runs every arm once and writes multiverse.json, the report and the curve of 8 specifications', () => {
    expect(first.code).toBe(0);
    const started = /multiverse: (\d+) episode\(s\) started, 0 already recorded, over 16 distinct arm\(s\) of 8 specification\(s\)/.exec(first.stdout.join('\n'));
    expect(started).not.toBeNull();
    // 32 planned; a protocol's selection rule may draw more (episodes not valid under its rule are redrawn).
    const arms = readdirSync(join(out, 'arms'));
    expect(arms).toHaveLength(16);
    const recorded = arms.reduce((n, a) => n + readFileSync(join(out, 'arms', a, 'episodes.jsonl'), 'utf8').trim().split('\n').length, 0);
    expect(Number(started![1])).toBe(recorded);
    expect(recorded).toBeGreaterThanOrEqual(32);
    // The arms' seats are played on one set of agent processes (orchestrator/run/pool-lender.ts), started
    // once for the sweep, not a pool per arm; and still never two seats of one episode in one process.
    type Seat = { pid: number | null };
    const armsOfPid = new Map<number, Set<string>>();
    for (const a of arms) {
      for (const line of readFileSync(join(out, 'arms', a, 'episodes.jsonl'), 'utf8').trim().split('\n')) {
        const r = JSON.parse(line) as { episodeId: string; seats: Seat[]; scriptWriter?: Seat };
        const pids = r.seats.map((s) => s.pid).filter((p) => p !== null);
        expect(new Set(pids).size, r.episodeId).toBe(pids.length);
        for (const pid of [...pids, r.scriptWriter?.pid ?? null]) if (pid !== null) armsOfPid.set(pid, (armsOfPid.get(pid) ?? new Set()).add(a));
      }
    }
    expect([...armsOfPid.values()].some((used) => used.size > 1)).toBe(true);
    const json = JSON.parse(readFileSync(join(out, 'multiverse.json'), 'utf8'));
    expect(json.specifications).toHaveLength(8);
    for (const s of json.specifications) expect(s.pairs).toBe(2);
    expect(['robust', 'fragile', 'reversed']).toContain(json.summary.verdict);
    const svg = readFileSync(join(out, 'charts', 'curve.svg'), 'utf8');
    // One point per specification (each has paired scenarios), and an indicator row per axis value.
    expect(svg.match(/<circle /g)).toHaveLength(8);
    for (const label of ['seed = 1', 'seed = 4', 'protocol = paper', 'protocol = parley']) expect(svg).toContain(label);
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toMatch(/The claim holds in sign in \d+% of 8 specifications/);
    expect(md).toMatch(/\*\*Verdict: (robust|fragile|reversed)\*\* \(robust: ≥ 90%/);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('<svg');
    // Per axis, the swing between its values' median effects: seed's four values, protocol's two.
    expect(Object.fromEntries(json.swing.map((a: { axis: string; values: unknown[] }) => [a.axis, a.values.length]))).toEqual({ seed: 4, protocol: 2 });
    expect(md).toContain('## How far each axis moves the effect');
  });

  it('the same command again starts no episode', async () => {
    const p = await parleyInProcess(['multiverse', claim, '--out', out]);
    expect(p.code).toBe(0);
    expect(p.stdout.join('\n')).toMatch(/multiverse: 0 episode\(s\) started, \d+ already recorded/);
  });

  it('an unknown axis key exits 2 with file:line and writes nothing', async () => {
    const bad = join(tmp.path, 'bad.yaml');
    writeFileSync(bad, CLAIM.replace('  protocol: [paper, parley]\n', '  protocol: [paper, parley]\n  temprature: [0.3, 0.7]\n'));
    const dir = join(tmp.path, 'bad-out');
    const p = await parleyInProcess(['multiverse', bad, '--out', dir]);
    expect(p.code).toBe(2);
    expect(p.stderr.join('\n')).toContain(`${bad}:14: axes.temprature: unknown key 'temprature'`);
    expect(existsSync(dir)).toBe(false);
  });
});
