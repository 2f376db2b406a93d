import { describe, expect, it } from 'vitest';
import { parseExperiment } from './experiment.js';
import { buildRunConfig } from './commands/run.js';

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
