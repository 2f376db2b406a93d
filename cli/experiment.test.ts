import { describe, expect, it } from 'vitest';
import { parseExperiment } from './experiment.js';
import { buildRunConfig } from './plan/run-config.js';

describe('experiment files', () => {
  it('maps a full experiment onto RunConfig input', () => {
    const r = parseExperiment(
      ['scenarios: builtin', 'modes: agents,mindreaders', 'maxTurns: 12', 'agent1: openai:gpt-3.5-turbo', 'agent2:', '  spec: mistral:open-mixtral-8x7b', '  params: { temperature: 0.7 }', 'scriptWriter: bot', 'multiplex: true', 'repeats: 2'].join('\n'),
      'exp.yaml',
    );
    expect(r).toEqual({
      ok: true,
      config: {
        scenarios: 'builtin',
        modes: ['agents', 'mindreaders'],
        maxTurns: 12,
        repeats: 2,
        agents: [{ spec: 'openai:gpt-3.5-turbo' }, { spec: 'mistral:open-mixtral-8x7b', params: { temperature: 0.7 } }],
        scriptWriter: { spec: 'bot' },
        pool: { multiplex: true },
      },
    });
  });

  it('names the file, line and field of a bad value', () => {
    expect(parseExperiment('scenarios: builtin\nrepeats: 0\n', 'e.yaml')).toEqual({ ok: false, message: expect.stringMatching(/^e\.yaml:2: repeats: /) });
    expect(parseExperiment('modes: [agents, gossip]\n', 'e.yaml')).toEqual({ ok: false, message: expect.stringMatching(/^e\.yaml:1: modes/) });
    expect(parseExperiment('agents:\n  - bot\n  - gpt4\n', 'e.yaml')).toEqual({ ok: false, message: expect.stringMatching(/^e\.yaml:3: agents\.1: /) });
  });

  it('refuses unknown keys (a typo never falls back to a default)', () => {
    expect(parseExperiment('scenarios: builtin\nmaxTurn: 5\n', 'e.yaml')).toEqual({ ok: false, message: "e.yaml:2: maxTurn: unknown key 'maxTurn'" });
  });

  it('reports invalid YAML with its line', () => {
    expect(parseExperiment('modes: [agents\nout: x\n', 'e.yaml')).toMatchObject({ ok: false, message: expect.stringMatching(/^e\.yaml:\d+: invalid YAML/) });
  });
});

describe('buildRunConfig: flags over the experiment file', () => {
  it('lets flags win and applies RunConfig defaults', () => {
    const built = buildRunConfig({ out: 'd', 'max-turns': 7, agent2: 'bot:craigslist', modes: ['agents'] });
    expect(built).toMatchObject({ ok: true, config: { out: 'd', maxTurns: 7, modes: ['agents'], agents: [{ spec: 'bot' }, { spec: 'bot:craigslist' }], turnDeadlineMs: 120_000, repeats: 1 } });
  });

  it('requires --out', () => {
    expect(buildRunConfig({})).toEqual({ ok: false, message: '--out DIR is required (the run directory)' });
  });
});

describe('experiment arms and validation (issue 10)', () => {
  const ARMS = [
    'scenarios: builtin',
    'out: runs/x',
    'protocol: paper',
    'judge: { spec: openai:gpt-4, params: { temperature: 0 } }',
    'arms:',
    '  a:',
    '    agents: [openai:m1, openai:m1]',
    '    scriptWriter: openai:m1',
    '  b:',
    '    agent2: { spec: openai:m2, baseURL: "http://127.0.0.1:9/v1" }',
    '    maxTurns: 6',
  ].join('\n');

  it('gives each arm the shared settings, its own over them, and the directory <out>/<arm>', () => {
    const r = parseExperiment(ARMS, 'e.yaml');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.arms!.map((a) => a.name)).toEqual(['a', 'b']);
    expect(r.arms![0]!.config).toMatchObject({ out: 'runs/x/a', protocol: 'paper', agents: [{ spec: 'openai:m1' }, { spec: 'openai:m1' }], scriptWriter: { spec: 'openai:m1' }, judge: { spec: 'openai:gpt-4' } });
    expect(r.arms![1]!.config).toMatchObject({ out: 'runs/x/b', maxTurns: 6, agents: [{ spec: 'bot' }, { spec: 'openai:m2', baseURL: 'http://127.0.0.1:9/v1' }] });
  });

  it('names the key, the line and the allowed values', () => {
    expect(parseExperiment('scenarios: builtin\nmodes: [script, agentz]\n', 'e.yaml')).toEqual({
      ok: false,
      message: "e.yaml:2: modes.1: 'agentz' is not a mode (allowed: script, agents, mindreaders)",
    });
    expect(parseExperiment('protocol: papr\n', 'e.yaml')).toEqual({ ok: false, message: "e.yaml:1: protocol: 'papr' is not a protocol (allowed: paper, parley)" });
    const arm = parseExperiment('arms:\n  a:\n    maxTurn: 3\n', 'e.yaml');
    expect(arm).toEqual({ ok: false, message: "e.yaml:3: arms.a.maxTurn: unknown key 'maxTurn'" });
  });

  it('a misspelt sampling parameter is an error naming what the provider accepts, not something sent', () => {
    const r = parseExperiment('agent1:\n  spec: openai:gpt-4\n  params:\n    temprature: 0.7\n', 'e.yaml');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.message).toMatch(/^e\.yaml:4: agent1\.params\.temprature: 'temprature' is not a openai parameter \(allowed: temperature, top_p/);
    const mistral = parseExperiment('agent1: { spec: mistral:m, params: { seed: 1, safe_prompt: true, top_k: 5 } }\n', 'e.yaml');
    expect(mistral).toMatchObject({ ok: false, message: expect.stringContaining("'top_k' is not a mistral parameter") });
    // Client settings ride in params too and are not sampling parameters.
    expect(parseExperiment('agent1: { spec: openai:m, params: { temperature: 0.7, structuredOutput: prompt, timeoutMs: 5 } }\n', 'e.yaml').ok).toBe(true);
  });

  it('the completion transport is an openai-only client setting, refused for mistral before any episode', () => {
    expect(parseExperiment('agent1: { spec: openai:m, params: { transport: completion, top_k: 50 } }\n', 'e.yaml').ok).toBe(true);
    const r = parseExperiment('agent1: { spec: mistral:m, params: { transport: completion } }\n', 'e.yaml');
    expect(r).toMatchObject({ ok: false, message: expect.stringContaining('agent1.params.transport: params.transport: completion needs an openai') });
  });
});
