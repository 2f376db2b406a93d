import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fakeLlmSuite } from './helpers/fake-llm-suite.js';
import { cleanEnv, parleyCli } from './llm-run-helpers.js';
import { scriptOverAgentsClaim } from './helpers/multiverse-claim.js';

/**
 * `parley multiverse` against an OpenAI-compatible server on 127.0.0.1 (issue 43, contract items 2 and 3):
 * model × judge, two values each, script against agents, 3 scenarios. The model axis sets every LLM seat,
 * so 2 models × 2 sides = 4 arms of 3 episodes: 12 generated, not 24, since a judge axis re-judges the
 * same runs. Each judge scores each episode once (counted at the server, by model); the same command
 * again sends nothing; --dry-run prints the plan and the server receives nothing.
 */
const CLAIM = scriptOverAgentsClaim('llm-model-judge', 'goal', { limit: 3, maxTurns: 4 }, { model: '[openai:gen-a, openai:gen-b]', judge: '[openai:judge-a, openai:judge-b]' });

const JUDGES = ['judge-a', 'judge-b'];

describe('parley multiverse with model and judge axes (fake OpenAI-compatible server)', () => {
  const suite = fakeLlmSuite('multiverse-llm');
  const { tmp } = suite;
  const claim = join(tmp.path, 'claim.yaml');
  const out = join(tmp.path, 'mv');
  const cli = (args: string[]) => parleyCli(['multiverse', claim, ...args], cleanEnv(suite.server.env()), 240_000);
  const byModel = () => {
    const n: Record<string, number> = {};
    for (const q of suite.server.requests) n[String(q.body.model)] = (n[String(q.body.model)] ?? 0) + 1;
    return n;
  };

  beforeAll(async () => {
    writeFileSync(claim, CLAIM);
  });

  it('--dry-run prints specifications, episodes, calls and cost, and the server receives nothing', async () => {
    const dry = await cli(['--out', join(tmp.path, 'dry'), '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^4 specification\(s\), 4 distinct arm\(s\), 12 episode\(s\) planned/m);
    // 6 script episodes (one call each) + 6 agents episodes (at most 4 turns, one call each) + 12 × 2 judge calls.
    expect(dry.stdout).toMatch(/^LLM calls: 54 \(30 generation, 24 judge over 8 \(arm, judge\) pair\(s\)\); estimated cost \$\d+\.\d\d plus unpriced /m);
    expect(suite.server.requests).toHaveLength(0);
  }, 240_000);

  it('generates 12 episodes (not 24) and each judge scores each of them once', async () => {
    const run = await cli(['--out', out, '--concurrency', '2']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/multiverse: 12 episode\(s\) started, 0 already recorded, over 4 distinct arm\(s\) of 4 specification\(s\)/);
    const arms = readdirSync(join(out, 'arms'));
    expect(arms).toHaveLength(4);
    const records = arms.flatMap((a) => readFileSync(join(out, 'arms', a, 'episodes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l)));
    expect(records).toHaveLength(12);
    // One judge request per episode (MutualFriends: no deal question) per judge model.
    const counts = byModel();
    for (const j of JUDGES) expect(counts[j]).toBe(12);
    for (const r of records) {
      expect(r.status).toBe('ok');
      expect(Object.keys(r.evaluation.variants).sort()).toEqual(['openai:judge-a full', 'openai:judge-b full']);
    }
    const json = JSON.parse(readFileSync(join(out, 'multiverse.json'), 'utf8'));
    expect(json.specifications).toHaveLength(4);
    for (const s of json.specifications) {
      expect(s.pairs).toBe(3);
      expect(typeof s.effect).toBe('number');
    }
    // Per axis, how far the effect moves between its values, in the json and the report.
    expect(json.swing.map((a: { axis: string }) => a.axis).sort()).toEqual(['judge', 'model']);
    for (const a of json.swing) expect(a.values).toHaveLength(2);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toMatch(/## How far each axis moves the effect[\s\S]*\| model \| openai:gen-a: /);
    // Each model's pair of specifications shares its arms: only the judge differs.
    const armsOf = (model: string) => new Set(json.specifications.filter((s: { choices: { model: string } }) => s.choices.model === model).flatMap((s: { a: string; b: string }) => [s.a, s.b]));
    expect(armsOf('openai:gen-a').size).toBe(2);
    expect(armsOf('openai:gen-b').size).toBe(2);
  }, 240_000);

  it('the same command again generates and judges nothing', async () => {
    const before = suite.server.requests.length;
    const again = await cli(['--out', out]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/multiverse: 0 episode\(s\) started, 12 already recorded/);
    expect(again.stdout).toMatch(/multiverse: 0 episode\(s\) judged, 24 already judged/);
    expect(suite.server.requests.slice(before).filter((q) => JUDGES.includes(String(q.body.model)))).toHaveLength(0);
    expect(suite.server.requests.length).toBe(before);
  }, 240_000);

  it('a judge added later judges the recorded runs through --batch, re-running nothing and re-judging no other judge', async () => {
    const before = suite.server.requests.length;
    const wider = join(tmp.path, 'wider.yaml');
    writeFileSync(wider, CLAIM.replace('judge: [openai:judge-a, openai:judge-b]', 'judge: [openai:judge-a, openai:judge-c]'));
    const run = await parleyCli(['multiverse', wider, '--out', out, '--batch', '--batch-poll', '0.05'], cleanEnv(suite.server.env()), 240_000);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/multiverse: 0 episode\(s\) started, 12 already recorded/);
    expect(run.stdout, `${run.stdout}\n${run.stderr}`).toMatch(/multiverse: 12 episode\(s\) judged, 12 already judged/);
    const sent = suite.server.requests.slice(before).filter((q) => q.body.model !== undefined);
    expect(sent.every((q) => q.body.model === 'judge-c' && q.viaBatch !== undefined)).toBe(true);
    expect(sent).toHaveLength(12);
  }, 240_000);
});
