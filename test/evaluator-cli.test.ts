import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIMENSIONS } from '../evaluator/dimensions.js';
import { Evaluation } from '../evaluator/evaluation.js';
import { requestedSeats, validReply } from '../evaluator/testing/fake-judge.js';
import { clScenario, episode, mfScenario, openScenario, writeRunDir } from '../evaluator/testing/fixtures.js';
import { reply, startFakeLlmServer, type FakeLlmServer, type ReceivedRequest } from '../testkit/fake-llm-server.js';
import { parleyOutputInProcess } from './helpers/parley-output.js';

/**
 * `parley eval | report | export` as a user runs them (in the test's process: testkit/in-process-cli.ts), the real `openai` SDK,
 * a fake OpenAI-compatible server on 127.0.0.1 scripted to give good, out-of-range and missing scores.
 */

const parley = parleyOutputInProcess;

const userText = (r: ReceivedRequest) => (r.body.messages ?? []).map((m) => String(m.content)).join('\n');
const scenarioOf = (r: ReceivedRequest) => (userText(r).includes('Two friends share a meal.') ? 'open' : userText(r).includes('mutual friend') ? 'mf' : 'cl');

let server: FakeLlmServer;
let dir: string;
const seen: Record<string, number> = {};

beforeAll(async () => {
  const mf = mfScenario();
  const cl = clScenario();
  const op = openScenario();
  dir = await writeRunDir(
    [mf, cl, op],
    [
      episode({ scenario: op, moves: [['a', 'speak', 'I am moving to Lisbon.'], ['b', 'speak', 'Oh! Can you lend me money?']] }),
      episode({ scenario: mf, moves: [['a', 'speak', 'Do you know Jane Doe?'], ['b', 'action', 'select Jane Doe']] }),
      episode({ scenario: cl, moves: [['a', 'speak', 'Would you take $70?'], ['b', 'speak', 'Deal.']] }),
      episode({ scenario: op, mode: 'script', moves: [['a', null]], status: 'failed' }),
    ],
  );
  server = await startFakeLlmServer({
    default: (req) => {
      // The Craigslist deal is its own call (appendix H.2): a schema with only "deal".
      if (req.body.response_format?.json_schema?.schema?.properties && !('evaluations' in (req.body.response_format.json_schema.schema.properties as object))) {
        return reply.json({ deal: { reasoning: 'they agreed on $70', deal_reached: true, price: 70 } });
      }
      const which = scenarioOf(req);
      const n = (seen[which] = (seen[which] ?? 0) + 1);
      const seats = requestedSeats({ json: { schema: req.body.response_format?.json_schema?.schema ?? {} } });
      if (which === 'mf' && n === 1) return reply.json(validReply(seats, { score: (d) => (d === 'goal' ? 11 : 0) })); // out of range, then fine
      if (which === 'cl') {
        const bad = validReply(seats, { deal: { deal_reached: true, price: 70 }, score: () => 0 }) as { evaluations: Record<string, Record<string, unknown>> };
        if (n === 1) delete bad.evaluations[seats[0]!]!['secret']; // missing score
        else (bad.evaluations[seats[0]!]!['relationship'] as { score: number }).score = 9; // out of range
        return reply.json(bad);
      }
      return reply.json(validReply(seats, { score: (d, seat) => (d === 'goal' ? (seat === 'a' ? 8 : 5) : 0), deal: undefined }));
    },
  });
});

afterAll(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('parley eval / report / export', () => {
  it('stores all 7 scores with reasoning per seat, and an evaluation error after one retry', async () => {
    const r = await parley(['eval', dir, '--judge', 'openai:gpt-4', '--concurrency', '2'], server.env());
    expect(r.stderr).toContain('judged 3/3 episodes');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('evaluated 3 episodes: 4 seats scored, 2 evaluation errors (judge/invalid_scores ×2); 1 failed episodes not judged');

    // requests: open 1, mf 2 (retry after the out-of-range goal), cl 2 (retry, then error) + cl's separate deal call 1
    expect(server.requests).toHaveLength(6);
    for (const req of server.requests) {
      expect(req.body.model).toBe('gpt-4');
      expect((req.body as Record<string, unknown>)['temperature']).toBe(0);
      expect(req.body.response_format?.type).toBe('json_schema');
    }
    const scoring = server.requests.filter((q) => JSON.stringify(q.body.response_format).includes('"evaluations"'));
    expect(scoring).toHaveLength(5);
    for (const req of scoring) expect(JSON.stringify(req.body.response_format)).toContain(JSON.stringify(DIMENSIONS.find((d) => d.name === 'goal')!.rubric));

    const lines = (await readFile(path.join(dir, 'episodes.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(4);
    const [open, mf, cl, failed] = lines.map((l) => Evaluation.safeParse(l.evaluation));
    for (const e of [open, mf]) {
      expect(e!.success).toBe(true);
      for (const seat of ['a', 'b']) {
        const s = e!.data!.judge!.seats[seat]!;
        expect(s.ok).toBe(true);
        if (!s.ok) continue;
        for (const d of DIMENSIONS) {
          expect(s.scores[d.name]!.score).toBeGreaterThanOrEqual(d.min);
          expect(s.scores[d.name]!.score).toBeLessThanOrEqual(d.max);
          expect(s.scores[d.name]!.reasoning).toContain(d.name);
        }
      }
    }
    expect(open!.data!.judge!.seats['a']).toMatchObject({ ok: true, scores: { goal: { score: 8 } } });
    expect(mf!.data!.judge!.calls).toBe(2);
    expect(mf!.data!.judge!.judge).toMatchObject({ spec: 'openai:gpt-4', model: 'gpt-4', visibility: 'full', temperature: 0 });
    for (const seat of ['a', 'b']) {
      expect(cl!.data!.judge!.seats[seat]).toMatchObject({ ok: false, error: { code: 'judge/invalid_scores', attempts: 2 } });
    }
    // The deal is asked separately, so it is answered even though the scores failed.
    expect(cl!.data!.judge!.deal).toMatchObject({ ok: true, deal: true, price: 70 });
    expect(lines[3].evaluation).toBeUndefined();
    expect(failed!.success).toBe(false);
    // the rest of each record is untouched
    expect(lines[0].turns[0].action.argument).toBe('I am moving to Lisbon.');
  });

  it('writes a report with the judge table, and a CSV with the scores', async () => {
    const rep = await parley(['report', dir], {});
    expect(rep.code, rep.stderr).toBe(0);
    const md = await readFile(path.join(dir, 'report.md'), 'utf8');
    expect(md).toContain("| agents | bot:a × bot:b | all | 4 | 2 | 0.00 [0.00, 0.00] (2) |");
    expect(md).toMatch(/\| agents \| bot:a × bot:b \| all \| 4 \| 2 \|.* 6\.50 \[6\.50, 6\.50\] \(2\) \|$/m);
    expect(md).toContain('judge/invalid_scores ×2');

    const out = path.join(dir, 'out.csv');
    const ex = await parley(['export', dir, '--format', 'csv', '--out', out], {});
    expect(ex.code, ex.stderr).toBe(0);
    const [header, ...rows] = (await readFile(out, 'utf8')).trim().split('\r\n').map((l) => l.split(','));
    expect(rows).toHaveLength(8);
    const col = (name: string) => header!.indexOf(name);
    expect(rows[0]![col('goal')]).toBe('8');
    expect(rows[1]![col('goal')]).toBe('5');
    expect(rows[4]![col('goal')]).toBe('');
    expect(rows[4]![col('judge_error')]).toContain('judge/invalid_scores');
  });

  it('--blind judges each seat alone from the public transcript and its own goal', async () => {
    server.requests.length = 0;
    for (const k of Object.keys(seen)) delete seen[k];
    const r = await parley(['eval', dir, '--judge', 'openai:gpt-4', '--blind', '--concurrency', '1'], server.env());
    expect(r.code, r.stderr).toBe(0);
    const openReqs = server.requests.filter((q) => scenarioOf(q) === 'open');
    expect(openReqs).toHaveLength(2);
    const [pa, pb] = openReqs.map(userText);
    expect(pa).toContain('Tell Fay you are moving');
    for (const hidden of ['Ask Eve for a loan', 'Judge note', 'Eve has a secret', 'Fay has a secret']) expect(pa).not.toContain(hidden);
    expect(pb).toContain('Ask Eve for a loan');
    const lines = (await readFile(path.join(dir, 'episodes.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    // Issue 16: the blind judgement is added next to the full-background one, never replacing it.
    expect(lines[0].evaluation.judge.judge.visibility).toBe('full');
    expect(lines[0].evaluation.variants['openai:gpt-4 blind'].judge.visibility).toBe('blind');
    expect(lines[0].evaluation.variants['openai:gpt-4 blind'].seats.a.ok).toBe(true);
    expect(lines[0].evaluation.variants['openai:gpt-4 full'].judge.visibility).toBe('full');
  });

  it('compare: asks which episode reads more natural and reports a Wilson interval', async () => {
    server.enqueue(reply.json({ reasoning: 'first is smoother', more_natural: '1' }), reply.json({ reasoning: 'second', more_natural: '2' }), reply.json({ reasoning: 'first', more_natural: '1' }));
    const out = path.join(dir, 'cmp.jsonl');
    const r = await parley(['compare', dir, dir, '--judge', 'openai:gpt-4', '--mode-a', 'agents', '--mode-b', 'agents', '--concurrency', '1', '--orders', 'one', '--out', out], server.env());
    expect(r.code, r.stderr).toBe(0);
    // the failed script episode is not a candidate; the three ok agents episodes pair with themselves
    expect(r.stdout).toMatch(/judged more natural in \d\/3 pairs: .*95% Wilson/);
    const verdicts = (await readFile(out, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(verdicts).toHaveLength(3);
    const bad = await parley(['compare', dir, dir, '--judge', 'openai:gpt-4'], server.env());
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('choose one with --mode-a');
    const badOrders = await parley(['compare', dir, dir, '--judge', 'openai:gpt-4', '--mode-a', 'agents', '--mode-b', 'agents', '--orders', 'three', '--out', path.join(dir, 'never.jsonl')], server.env());
    expect(badOrders.code).toBe(2);
    expect(badOrders.stderr).toContain('--orders must be one or both');
  });

  it('compare --orders both (issue 42, contract 3): two requests per pair, one in each order; a first-position judge has consistency 0 and no wins', async () => {
    const before = server.requests.length;
    // Whatever it is shown, this judge says the first conversation is the more natural.
    for (let i = 0; i < 6; i++) server.enqueue(reply.json({ reasoning: 'the first one', more_natural: '1' }));
    // The default file, which the report reads.
    const out = path.join(dir, 'compare-agents-vs-agents.jsonl');
    const r = await parley(['compare', dir, dir, '--judge', 'openai:gpt-4', '--mode-a', 'agents', '--mode-b', 'agents', '--concurrency', '1', '--orders', 'both'], server.env());
    expect(r.code, r.stderr).toBe(0);
    const sent = server.requests.slice(before);
    expect(sent).toHaveLength(6);
    const verdicts = (await readFile(out, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(verdicts).toHaveLength(3);
    for (const v of verdicts) {
      expect(v.presentations.map((p: { aShownFirst: boolean }) => p.aShownFirst).sort()).toEqual([false, true]);
      expect(v.winner).toBe('tie');
    }
    expect(r.stdout).toContain('judged more natural in 0/3 pairs');
    expect(r.stdout).toMatch(/position consistency 0\.0% \[[^\]]+\] of 3 pairs/);
    expect(r.stdout).toMatch(/first position won 100\.0% \[[^\]]+\] of 6 presentations/);
    // The report shows the same figures.
    const rep = await parley(['report', dir], server.env());
    expect(rep.code, rep.stderr).toBe(0);
    const md = await readFile(path.join(dir, 'report.md'), 'utf8');
    expect(md).toMatch(/\| both \| 3 \| 0 \| 0 \| 3 \| [^|]+ \| 0\.0% \[[^\]]+\] of 3 \| 100\.0% \[[^\]]+\] of 6 \|/);
  });

  it('fails clearly without a judge or a key', async () => {
    const none = await parley(['eval', dir], {});
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--judge SPEC is required');
    const nokey = await parley(['eval', dir, '--judge', 'openai:gpt-4', '--api-key-env', 'PARLEY_TEST_NO_SUCH_KEY'], {});
    expect(nokey.code).toBe(2);
    expect(nokey.stderr).toContain('PARLEY_TEST_NO_SUCH_KEY');
  });
});
