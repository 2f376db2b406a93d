import { describe, expect, it } from 'vitest';
import { DIMENSIONS } from '../dimensions.js';
import { EpisodeJudgement, Evaluation, rangedScores } from '../evaluation.js';
import { requestedSeats, ScriptedClient, validReply } from '../testing/fake-judge.js';
import { clScenario, episode, openScenario } from '../testing/fixtures.js';
import { judgeEpisode } from './judge.js';
import { parseJudgement } from './parse.js';
import { judgeSchema } from './schema.js';

const open = openScenario();
const ep = episode({ scenario: open, moves: [['a', 'speak', 'Fay, I am moving to Lisbon.'], ['b', 'speak', 'Could you lend me $500 first?']] });
const opts = (client: ScriptedClient, visibility: 'full' | 'blind' = 'full') => ({ client, spec: 'openai:gpt-4', visibility, now: () => new Date('2024-05-01T00:00:00Z') });

describe('judge reply parsing', () => {
  it('accepts all seven scores in range, and a ```json fence', () => {
    const r = parseJudgement('```json\n' + JSON.stringify(validReply(['a', 'b'])) + '\n```', ['a', 'b'], false);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.value.seats['a']!.goal).toEqual({ reasoning: 'a goal reasoning', score: 10 });
  });
  it('reads the object inside prose, as SOTOPIA\'s langchain parser did (first `{` to last `}`)', () => {
    const json = JSON.stringify(validReply(['a', 'b']));
    const r = parseJudgement(`Here is my evaluation:\n${json}\nI hope this helps.`, ['a', 'b'], false);
    expect(r.ok).toBe(true);
    // Raw line breaks inside its strings, as langchain's json.loads(strict=False) read them.
    const broken = parseJudgement(`Evaluation:\n${json.replace('"a goal reasoning"', '"a goal\nreasoning"')}`, ['a', 'b'], false);
    expect(broken.ok && broken.value.seats['a']!.goal!.reasoning).toBe('a goal\nreasoning');
    // Braces that do not hold one JSON object are still bad JSON.
    expect(parseJudgement('{scores} and {more}', ['a'], false)).toMatchObject({ ok: false, error: { code: 'judge/bad_json' } });
  });
  it('rejects bad JSON, a missing seat, a missing dimension, out-of-range and non-integer scores', () => {
    expect(parseJudgement('not json', ['a'], false)).toMatchObject({ ok: false, error: { code: 'judge/bad_json' } });
    expect(parseJudgement('[1]', ['a'], false)).toMatchObject({ ok: false, error: { code: 'judge/bad_json' } });
    expect(parseJudgement(JSON.stringify(validReply(['a'])), ['a', 'b'], false)).toMatchObject({ ok: false, error: { code: 'judge/invalid_scores', message: 'no evaluation for seat "b"' } });
    const missing = validReply(['a']) as { evaluations: Record<string, Record<string, unknown>> };
    delete missing.evaluations['a']!['secret'];
    expect(parseJudgement(JSON.stringify(missing), ['a'], false)).toMatchObject({ ok: false, error: { code: 'judge/invalid_scores' } });
    for (const [dim, score] of [['goal', 11], ['secret', 1], ['relationship', -6], ['social_rules', -11], ['knowledge', 2.5]] as const) {
      const bad = validReply(['a'], { score: (d) => (d === dim ? score : 0) });
      const r = parseJudgement(JSON.stringify(bad), ['a'], false);
      expect(r.ok, `${dim}=${score}`).toBe(false);
      if (!r.ok) expect(r.error.message).toContain(dim);
    }
    // the lowest and highest values of every range are fine
    expect(parseJudgement(JSON.stringify(validReply(['a'], { score: (d) => DIMENSIONS.find((x) => x.name === d)!.min })), ['a'], false).ok).toBe(true);
  });
  it('builds one validator per set of dimensions and ranges, reused for every reply', () => {
    const dims = [{ name: 'goal', min: 0, max: 10 }, { name: 'secret', min: -10, max: 0 }];
    expect(rangedScores(dims.map((d) => ({ ...d })))).toBe(rangedScores(dims));
    const wider = rangedScores([{ name: 'goal', min: 0, max: 20 }, dims[1]!]);
    expect(wider).not.toBe(rangedScores(dims));
    const reply = { goal: { reasoning: 'r', score: 15 }, secret: { reasoning: 'r', score: 0 } };
    expect(wider.safeParse(reply).success).toBe(true);
    expect(rangedScores(dims).safeParse(reply).success).toBe(false);
  });
  it('requires the deal answer when asked', () => {
    expect(parseJudgement(JSON.stringify(validReply(['a'])), ['a'], true)).toMatchObject({ ok: false });
    const r = parseJudgement(JSON.stringify(validReply(['a'], { deal: { deal_reached: true, price: 70 } })), ['a'], true);
    expect(r.ok && r.value.deal).toEqual({ deal: true, price: 70, reasoning: 'deal reasoning' });
  });
});

describe('judge schema', () => {
  it('carries each dimension\'s rubric and range, strict-mode style', () => {
    const schema = judgeSchema(['a', 'b'], true) as any;
    expect(schema.required).toEqual(['evaluations', 'deal']);
    expect(schema.additionalProperties).toBe(false);
    const seat = schema.properties.evaluations.properties.a;
    expect(seat.required).toHaveLength(7);
    for (const d of DIMENSIONS) {
      expect(seat.properties[d.name].description).toContain(d.rubric);
      expect(seat.properties[d.name].properties.score).toMatchObject({ type: 'integer', minimum: d.min, maximum: d.max });
      expect(seat.properties[d.name].required).toEqual(['reasoning', 'score']);
    }
  });
});

describe('judgeEpisode', () => {
  it('scores every seat in one call at temperature 0, with the full background', async () => {
    const client = new ScriptedClient((req) => JSON.stringify(validReply(requestedSeats(req))));
    const j = await judgeEpisode(ep, open, opts(client));
    expect(client.requests).toHaveLength(1);
    const req = client.requests[0]!;
    expect(req.temperature).toBe(0);
    expect(req.json?.name).toBe('sotopia_eval');
    const prompt = req.messages.map((m) => m.content).join('\n');
    // full: both goals, hints, both secrets, judge-only text, the transcript
    for (const text of ['Tell Fay you are moving', 'Ask Eve for a loan', 'Be gentle.', 'Eve has a secret', 'Fay has a secret', 'Eve plans to move away', 'Could you lend me $500 first?']) expect(prompt).toContain(text);
    expect(j.seats['a']).toMatchObject({ ok: true });
    expect(j.judge).toMatchObject({ spec: 'openai:gpt-4', visibility: 'full', temperature: 0, model: 'fake-judge' });
    expect(j.calls).toBe(1);
    expect(j.evaluatedAt).toBe('2024-05-01T00:00:00.000Z');
    expect(Evaluation.safeParse({ v: 1, judge: j }).success).toBe(true);
  });

  it('blind: one call per seat, with only the public transcript and that seat\'s goal', async () => {
    const client = new ScriptedClient((req) => JSON.stringify(validReply(requestedSeats(req))));
    const j = await judgeEpisode(ep, open, opts(client, 'blind'));
    expect(client.requests).toHaveLength(2);
    const [pa, pb] = client.requests.map((r) => r.messages.map((m) => m.content).join('\n'));
    expect(pa).toContain('Tell Fay you are moving');
    expect(pa).toContain('Could you lend me $500 first?');
    for (const hidden of ['Ask Eve for a loan', 'Eve has a secret', 'Fay has a secret', 'Eve plans to move away', 'Be gentle.', 'grew up together']) expect(pa).not.toContain(hidden);
    expect(pb).toContain('Ask Eve for a loan');
    expect(pb).not.toContain('Tell Fay you are moving');
    expect(requestedSeats(client.requests[0]!)).toEqual(['a']);
    expect(j.judge.visibility).toBe('blind');
    expect(Object.values(j.seats).every((s) => s.ok)).toBe(true);
  });

  it('retries once after an out-of-range score and keeps the good answer', async () => {
    const client = new ScriptedClient((req, n) => JSON.stringify(validReply(requestedSeats(req), { score: (d) => (n === 0 && d === 'goal' ? 11 : 0) })));
    const j = await judgeEpisode(ep, open, opts(client));
    expect(client.requests).toHaveLength(2);
    expect(j.calls).toBe(2);
    expect(j.seats['b']).toMatchObject({ ok: true });
  });

  it('stores an evaluation error — never a score — after a second failure', async () => {
    const replies = ['{"evaluations": {', JSON.stringify(validReply(['a']))];
    const client = new ScriptedClient((_req, n) => replies[n] ?? 'unused');
    const j = await judgeEpisode(ep, open, opts(client));
    expect(client.requests).toHaveLength(2);
    for (const seat of ['a', 'b']) {
      expect(j.seats[seat]).toMatchObject({ ok: false, error: { code: 'judge/invalid_scores', attempts: 2 } });
      expect(j.seats[seat]).not.toHaveProperty('scores');
    }
    expect(EpisodeJudgement.safeParse(j).success).toBe(true);
  });

  it('records provider errors as evaluation errors after one retry', async () => {
    const client = new ScriptedClient(() => new Error('llm/http_error: 500'));
    const j = await judgeEpisode(ep, open, opts(client));
    expect(client.requests).toHaveLength(2);
    expect(j.seats['a']).toMatchObject({ ok: false, error: { code: 'judge/provider_error', message: 'llm/http_error: 500', attempts: 2 } });
  });

  it('asks Craigslist episodes about the deal and stores the answer', async () => {
    const cl = clScenario();
    const e = episode({ scenario: cl, moves: [['a', 'speak', 'Would you take $70?'], ['b', 'speak', 'Deal, $70 it is.']] });
    const client = new ScriptedClient((req) => JSON.stringify(validReply(requestedSeats(req), { deal: { deal_reached: true, price: 70 } })));
    const j = await judgeEpisode(e, cl, opts(client));
    expect(j.deal).toEqual({ ok: true, deal: true, price: 70, reasoning: 'deal reasoning' });
    const prompt = client.requests[0]!.messages.map((m) => m.content).join('\n');
    // the full judge sees the private narrative segment and both targets
    expect(prompt).toContain('The seller needs cash fast. (known only to Dan)');
    expect(prompt).toContain('target price $60');
    expect(prompt).toContain('target price $100');
  });

  it('does not call the judge when the scenario is missing', async () => {
    const client = new ScriptedClient(() => 'x');
    const j = await judgeEpisode(ep, undefined, opts(client));
    expect(client.requests).toHaveLength(0);
    expect(j.seats['a']).toMatchObject({ ok: false, error: { code: 'judge/missing_scenario' } });
  });
});

describe('paper fidelity of the judge (issue 10)', () => {
  it('asks the Craigslist deal in a separate call with both goals and the dialogue only', async () => {
    const cl = clScenario();
    const e = episode({ scenario: cl, moves: [['a', 'speak', 'Would you take $70?'], ['b', 'speak', 'Deal, $70 it is.']] });
    const client = new ScriptedClient((req) => JSON.stringify(validReply(requestedSeats(req), { deal: { deal_reached: true, price: 70 } })));
    await judgeEpisode(e, cl, opts(client));
    expect(client.requests).toHaveLength(2);
    const [scores, deal] = client.requests;
    expect(Object.keys((scores!.json!.schema as { properties: object }).properties)).toEqual(['evaluations']);
    expect(Object.keys((deal!.json!.schema as { properties: object }).properties)).toEqual(['deal']);
    const text = deal!.messages.map((m) => m.content).join('\n');
    expect(text).toContain("Cat's goal: Buy the bike cheaply");
    expect(text).toContain("Dan's goal: Sell the bike dearly");
    expect(text).toContain('Turn #1: Dan said: "Deal, $70 it is."');
    for (const hidden of ['Cat has a secret', 'The seller needs cash fast.', 'target price $60', 'believab']) expect(text).not.toContain(hidden);
    // appendix H.2's order: the question, the goals, the interaction, the answer format
    const at = (x: string) => text.indexOf(x);
    expect(at('whether the two of them reached a deal')).toBeGreaterThanOrEqual(0);
    expect(at('whether the two of them reached a deal')).toBeLessThan(at("Cat's goal"));
    expect(at("Dan's goal")).toBeLessThan(at('Turn #1: Dan said'));
    expect(at('Turn #1: Dan said')).toBeLessThan(at('your reasoning first, then yes (true) or no (false)'));
  });

  it("carries SOTOPIA-EVAL's criteria with no added instruction: one user message, no system prompt", async () => {
    const client = new ScriptedClient((req) => JSON.stringify(validReply(requestedSeats(req))));
    await judgeEpisode(ep, open, opts(client));
    const req = client.requests[0]!;
    expect(req.messages.map((m) => m.role)).toEqual(['user']);
    expect(req.messages[0]!.content).toContain('evaluate how well the participants achieved their goals');
    const believability = DIMENSIONS.find((d) => d.name === 'believability')!.rubric;
    expect(believability).toMatch(/<naturalness>[\s\S]*<consistency>/);
    expect(DIMENSIONS.find((d) => d.name === 'social_rules')!.rubric).not.toMatch(/convention/);
  });
});
