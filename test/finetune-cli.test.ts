import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseExperiment } from '../cli/experiment.js';
import { startFakeLlmServer, type FakeLlmServer } from '../testkit/fake-llm-server.js';
import { tempDir } from './helpers/processes.js';
import { cleanEnv } from './llm-run-helpers.js';
import { parleyCliInProcess } from './training-helpers.js';

/**
 * Issue 14, contract point 4: `parley finetune submit FILE --provider openai --model gpt-3.5-turbo-0125`
 * against the fake OpenAI-compatible server uploads the file and creates a job through the real SDK, and
 * `parley finetune status JOB` reports the fine-tuned model id (and an experiment-file arm) once the job
 * has succeeded. The fake job succeeds on the second status read — deterministic, no timers.
 */
describe('parley finetune submit | status (issue 14: point 4)', () => {
  let server: FakeLlmServer;
  const dir = tempDir('finetune');
  const train = join(dir.path, 'ft.jsonl');
  const validation = join(dir.path, 'ft.validation.jsonl');
  const line = (i: number) => JSON.stringify({ messages: [{ role: 'system', content: 'You play Ana.' }, { role: 'user', content: `Turn #${i}` }, { role: 'assistant', content: '{"action_type":"speak","argument":"hi"}' }] });

  beforeAll(async () => {
    server = await startFakeLlmServer();
    writeFileSync(train, Array.from({ length: 10 }, (_, i) => line(i) + '\n').join(''));
    writeFileSync(validation, line(99) + '\n');
  });
  afterAll(async () => {
    await server.close();
    dir.remove();
  });

  it('openai: uploads the file, creates the job, and status reports the model id and an arm when it succeeds', async () => {
    const env = cleanEnv(server.env());
    const sub = await parleyCliInProcess(['finetune', 'submit', train, '--provider', 'openai', '--model', 'gpt-3.5-turbo-0125', '--validation', validation], env);
    expect(sub.code, sub.stderr).toBe(0);
    expect(server.fineTuning.files.map((f) => [f.filename, f.purpose])).toEqual([['ft.jsonl', 'fine-tune'], ['ft.validation.jsonl', 'fine-tune']]);
    expect(server.fineTuning.files[0]!.content).toBe(readFileSync(train, 'utf8'));
    expect(server.fineTuning.jobs).toHaveLength(1);
    const job = server.fineTuning.jobs[0]!;
    expect(job).toMatchObject({ flavour: 'openai', model: 'gpt-3.5-turbo-0125', trainingFile: server.fineTuning.files[0]!.id, validationFile: server.fineTuning.files[1]!.id });
    expect(sub.stdout).toContain(`job ${job.id} (openai, base gpt-3.5-turbo-0125): queued`);
    // Requests went through the official SDK.
    const first = await parleyCliInProcess(['finetune', 'status', job.id], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(': running');
    expect(first.stdout).not.toContain('model:');
    const done = await parleyCliInProcess(['finetune', 'status', job.id, '--provider', 'openai'], env);
    expect(done.code, done.stderr).toBe(0);
    const model = done.stdout.match(/^model: (ft:gpt-3\.5-turbo-0125:\S+)$/m)?.[1];
    expect(model).toBeDefined();
    expect(done.stdout).toContain(`policy spec: openai:${model}`);
    // The printed arm is a valid experiment-file fragment that records the training data.
    const arm = done.stdout.split('experiment-file arm (e.g. in examples/agents-ft.yaml):\n')[1]!;
    expect(parse(arm)).toMatchObject({ agent1: { spec: `openai:${model}`, trainingData: { file: 'ft.jsonl', job: job.id, base: 'openai:gpt-3.5-turbo-0125' } } });
    const parsed = parseExperiment(`modes: agents\n${arm}`, 'arm.yaml');
    expect(parsed.ok, parsed.ok ? '' : parsed.message).toBe(true);
  });

  it('the printed arm runs as an experiment, and the report\'s simulation card names its training data', async () => {
    const env = cleanEnv(server.env());
    const job = server.fineTuning.jobs[0]!;
    const done = await parleyCliInProcess(['finetune', 'status', job.id], env);
    const arm = done.stdout.split('experiment-file arm (e.g. in examples/agents-ft.yaml):\n')[1]!;
    const out = join(dir.path, 'agents-ft');
    const experiment = join(dir.path, 'agents-ft.yaml');
    writeFileSync(experiment, `scenarios: builtin\nmodes: [agents]\nmaxTurns: 4\nlimit: 1\nconcurrency: 1\nout: ${out}\n${arm}\n${arm.replace('agent1:', 'agent2:')}\n`);
    const run = await parleyCliInProcess(['run', '--experiment', experiment], env);
    expect(run.code, run.stderr).toBe(0);
    const config = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')).config;
    expect(config.agents[0].trainingData).toMatchObject({ file: 'ft.jsonl', job: job.id });
    const report = await parleyCliInProcess(['report', out], env);
    expect(report.code, report.stderr).toBe(0);
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    const spec = parse(arm).agent1.spec as string;
    expect(md).toContain('**Fine-tuned models and their training data**');
    expect(md).toContain(`- \`${spec}\`: trained on \`ft.jsonl\`; base model openai:gpt-3.5-turbo-0125; job ${job.id}`);
  });

  it('mistral: files through the SDK, the job through its REST route; status --wait follows it to the model id', async () => {
    const env = cleanEnv(server.env());
    const sub = await parleyCliInProcess(['finetune', 'submit', train, '--provider', 'mistral', '--model', 'open-mistral-7b'], env);
    expect(sub.code, sub.stderr).toBe(0);
    const job = server.fineTuning.jobs.at(-1)!;
    expect(job).toMatchObject({ flavour: 'mistral', model: 'open-mistral-7b' });
    const done = await parleyCliInProcess(['finetune', 'status', job.id, '--provider', 'mistral', '--wait', '--interval', '0'], env);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toMatch(/running \(RUNNING\)[\s\S]*succeeded \(SUCCESS\)/);
    expect(done.stdout).toMatch(/^policy spec: mistral:ft:open-mistral-7b:\S+$/m);
  });

  it('refuses a file that is not chat fine-tuning data, naming the line, before uploading anything', async () => {
    const bad = join(dir.path, 'bad.jsonl');
    writeFileSync(bad, `${line(1)}\n{"prompt": "x"}\n`);
    const files = server.fineTuning.files.length;
    const sub = await parleyCliInProcess(['finetune', 'submit', bad, '--provider', 'openai', '--model', 'gpt-3.5-turbo-0125'], cleanEnv(server.env()));
    expect(sub.code).toBe(1);
    expect(sub.stderr).toContain(`${bad}:2:`);
    expect(server.fineTuning.files).toHaveLength(files);
  });
});
