import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Evaluation } from '../evaluator/evaluation.js';
import { reply, startFakeLlmServer, type FakeLlmServer, type ReceivedRequest } from '../testkit/fake-llm-server.js';
import { tempDir } from './helpers/processes.js';
import { cleanEnv, parleyCliInProcess, parleyRunInProcess, readEpisodes } from './llm-run-helpers.js';

/**
 * Issue 20: `judgeView` in an experiment file is recorded in run.json with the run, and `parley eval`
 * judges with it when no `--judge-view` is given — here a `parley`-protocol run (whose default view is
 * Parley's) asking for the paper view: the judge request has no response_format and one user message,
 * and every stored judgement records `view: paper`. The file's judge also names its reformat model
 * (`judge: { reformat: … }`): the judge's first reply is prose, and the one reformat request goes there.
 */
const text = (r: ReceivedRequest) => (r.body.messages ?? []).map((m) => String(m.content)).join('\n');

describe('judgeView from the experiment file to run.json to parley eval', () => {
  const tmp = tempDir('judge-view');
  const out = join(tmp.path, 'run');
  let server: FakeLlmServer;
  let judgeCalls = 0;

  beforeAll(async () => {
    server = await startFakeLlmServer({
      default: (req) => {
        if (req.body.model === 'gpt-4-0613' && ++judgeCalls === 1) return reply.text('Both did well, I would say.');
        const line = text(req).split('\n').find((l) => l.includes('one entry per participant')) ?? '';
        const format = text(req).split('\n').find((l) => l.startsWith('Format instructions (JSON schema): '));
        const fromSchema = format ? Object.keys((JSON.parse(format.slice(format.indexOf('{'))) as { properties: { evaluations: { properties: object } } }).properties.evaluations.properties) : [];
        const seats = [...[...line.matchAll(/"([^"]+)" \(/g)].map((m) => m[1]!), ...fromSchema];
        const dims = ['believability', 'relationship', 'knowledge', 'secret', 'social_rules', 'financial_and_material_benefits', 'goal'];
        const scores = Object.fromEntries(dims.map((d) => [d, { reasoning: `${d} ok`, score: 0 }]));
        return reply.text(JSON.stringify({ evaluations: Object.fromEntries(seats.map((s) => [s, scores])) }));
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    tmp.remove();
  });

  it('records judgeView in run.json, and eval uses it and the judge\'s reformat model without flags', async () => {
    const experiment = join(tmp.path, 'e.yaml');
    writeFileSync(experiment, `scenarios: builtin\nsubset: mutual_friends\nmodes: [agents]\nlimit: 1\nmaxTurns: 4\nprotocol: parley\njudge: { spec: openai:gpt-4-0613, reformat: { spec: openai:gpt-3.5-turbo-1106 } }\njudgeView: paper\nout: ${JSON.stringify(out)}\n`);
    const run = await parleyRunInProcess(['--experiment', experiment], cleanEnv(server.env()));
    expect(run.code, run.stderr).toBe(0);
    const runJson = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as { config: { judgeView?: string }; protocol: { name: string } };
    expect(runJson.config.judgeView).toBe('paper');
    expect(runJson.protocol.name).toBe('parley');

    const evaluated = await parleyCliInProcess(['eval', out], cleanEnv(server.env()));
    expect(evaluated.code, evaluated.stderr).toBe(0);
    expect(evaluated.stderr).toContain('(full, paper view)');
    const judged = server.requests.filter((r) => text(r).includes('rate how well each participant reached their goals'));
    expect(judged.length).toBe(1);
    const reformats = server.requests.filter((r) => text(r).includes('A JSON parser could not read the text below'));
    expect(reformats.map((r) => r.body.model)).toEqual(['gpt-3.5-turbo-1106']);
    expect(text(reformats[0]!)).toContain('Both did well, I would say.');
    for (const r of judged) {
      expect(r.body.response_format).toBeUndefined();
      expect(r.body.messages).toHaveLength(1);
    }
    for (const e of readEpisodes(out)) expect(Evaluation.parse(e.evaluation).judge!.judge.view).toBe('paper');
  });
});
