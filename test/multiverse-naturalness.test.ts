import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeLlmSuite } from './helpers/fake-llm-suite.js';
import { cleanEnv, parleyCli } from './llm-run-helpers.js';
import { scriptOverAgentsClaim } from './helpers/multiverse-claim.js';

/**
 * Issue 43's naturalness-order axis: `metric: naturalness` asks the judge which side's dialogue of the
 * same scenario reads more natural (parley compare's question), in one order per pair or in both
 * (`naturalnessOrder`). The order is how the sides are judged, not generated: both specifications share
 * the same two arms; one order asks once per pair, both orders twice; a rerun asks nothing.
 */
const CLAIM = scriptOverAgentsClaim(
  'natural-script',
  'naturalness',
  { limit: 2, maxTurns: 4, agents: '[openai:gen, openai:gen]', scriptWriter: 'openai:gen', judge: 'openai:natural-judge' },
  { naturalnessOrder: '[one, both]' },
);

describe('parley multiverse with the naturalness metric and its order axis (fake OpenAI-compatible server)', () => {
  const suite = fakeLlmSuite('multiverse-natural');
  const claim = () => join(suite.tmp.path, 'claim.yaml');
  const out = () => join(suite.tmp.path, 'mv');
  const cli = (args: string[]) => {
    if (!existsSync(claim())) writeFileSync(claim(), CLAIM);
    return parleyCli(['multiverse', claim(), ...args], cleanEnv(suite.server.env()), 240_000);
  };
  const judgeCalls = () => suite.server.requests.filter((q) => q.body.model === 'natural-judge').length;

  it('--dry-run counts one judge call per pair in one order and two in both; nothing is sent', async () => {
    const dry = await cli(['--out', join(suite.tmp.path, 'dry'), '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^2 specification\(s\), 2 distinct arm\(s\), 4 episode\(s\) planned/m);
    expect(dry.stdout).toMatch(/6 judge over 2 naturalness comparison\(s\) of the two sides/);
    expect(suite.server.requests).toHaveLength(0);
  }, 240_000);

  it('runs the two arms once, judges 2 + 2 pairs in 2 + 4 naturalness questions, and a rerun asks none', async () => {
    const run = await cli(['--out', out()]);
    expect(run.code, run.stderr).toBe(0);
    expect(readdirSync(join(out(), 'arms'))).toHaveLength(2);
    expect(run.stdout, run.stdout + run.stderr).toMatch(/naturalness: 4 pair\(s\) judged, 0 already judged, over 2 comparison\(s\)/);
    expect(judgeCalls()).toBe(6);
    expect(run.stdout).toMatch(/swing of naturalnessOrder: /);
    const json = JSON.parse(readFileSync(join(out(), 'multiverse.json'), 'utf8')) as { specifications: Array<{ choices: Record<string, unknown>; pairs: number; effect: number | null }> };
    expect(json.specifications.map((s) => s.choices['naturalnessOrder'])).toEqual(['one', 'both']);
    for (const s of json.specifications) {
      expect(s.pairs).toBe(2);
      expect(s.effect).not.toBeNull();
      expect(Math.abs(s.effect!)).toBeLessThanOrEqual(0.5);
    }
    const again = await cli(['--out', out()]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/naturalness: 0 pair\(s\) judged, 4 already judged/);
    expect(judgeCalls()).toBe(6);
  }, 240_000);

  it('naturalnessOrder on another metric, and a rubric with naturalness, are refused with file:line', async () => {
    const bad = join(suite.tmp.path, 'bad.yaml');
    writeFileSync(bad, CLAIM.replace('metric: naturalness', 'metric: goal'));
    const a = await parleyCli(['multiverse', bad, '--out', join(suite.tmp.path, 'bad-out')], cleanEnv(suite.server.env()));
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/bad\.yaml:\d+: .*naturalnessOrder is for the naturalness metric/);
    writeFileSync(bad, CLAIM.replace('  judge: openai:natural-judge', '  judge: openai:natural-judge\n  rubric: sotopia'));
    const b = await parleyCli(['multiverse', bad, '--out', join(suite.tmp.path, 'bad-out')], cleanEnv(suite.server.env()));
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/bad\.yaml:\d+: .*not a rubric/);
  });
});
