import { describe, expect, it } from 'vitest';
import { buildRunConfig } from './plan/run-config.js';
import { parseExperiment } from './experiment.js';

describe('protocol flags and experiment keys', () => {
  it('parses every flag into the run config', () => {
    const built = buildRunConfig({ out: '/tmp/x', protocol: 'paper', backgrounds: 'appendix', 'script-format': 'json', 'stop-rule': 'paper', 'leak-judge-only': ['script', 'mindreaders'], 'show-relationship-story': true, 'on-unparsable': 'fail' });
    expect(built.ok && built.config).toMatchObject({ protocol: 'paper', backgrounds: 'appendix', scriptFormat: 'json', stopRule: 'paper', leakJudgeOnly: ['script', 'mindreaders'], showRelationshipStory: true, onUnparsable: 'fail' });
  });

  it('names the flag on a bad value', () => {
    expect(buildRunConfig({ out: '/tmp/x', protocol: 'sotopia' })).toEqual({ ok: false, message: "--protocol: 'sotopia' is not one of paper, parley" });
    expect(buildRunConfig({ out: '/tmp/x', 'on-unparsable': 'skip' })).toEqual({ ok: false, message: "--on-unparsable: 'skip' is not one of none, fail" });
    expect(buildRunConfig({ out: '/tmp/x', 'leak-judge-only': ['agents'] })).toEqual({ ok: false, message: "--leak-judge-only: 'agents' is not one of script, mindreaders" });
  });

  it('experiment files take the same settings (key `protocol`)', () => {
    const r = parseExperiment('protocol: paper\nbackgrounds: code\nscriptFormat: text\nstopRule: code\nleakJudgeOnly: [mindreaders]\nshowRelationshipStory: false\n', 'e.yaml');
    expect(r).toEqual({ ok: true, config: { protocol: 'paper', backgrounds: 'code', scriptFormat: 'text', stopRule: 'code', leakJudgeOnly: ['mindreaders'], showRelationshipStory: false } });
    expect(parseExperiment('protocol: paper\nonUnparsable: fail\n', 'e.yaml')).toEqual({ ok: true, config: { protocol: 'paper', onUnparsable: 'fail' } });
    expect(parseExperiment('protocol: paper\nonUnparsable: skip\n', 'e.yaml')).toMatchObject({ ok: false, message: expect.stringContaining('e.yaml:2: onUnparsable') });
    expect(parseExperiment('protocol: sotopia\n', 'e.yaml')).toMatchObject({ ok: false, message: expect.stringContaining('e.yaml:1: protocol') });
  });

  it('--reformat-model sets every LLM generator\'s reformat model (not a bot\'s); an experiment file may set it per generator', () => {
    const built = buildRunConfig({ out: '/tmp/x', agent1: 'openai:gpt-4-0613', agent2: 'bot', 'script-writer': 'openai:gpt-4-0613', 'reformat-model': 'openai:gpt-3.5-turbo-0613' });
    expect(built.ok && built.config.agents).toEqual([expect.objectContaining({ spec: 'openai:gpt-4-0613', reformat: { spec: 'openai:gpt-3.5-turbo-0613' } }), expect.not.objectContaining({ reformat: expect.anything() })]);
    expect(built.ok && built.config.scriptWriter.reformat).toEqual({ spec: 'openai:gpt-3.5-turbo-0613' });
    expect(buildRunConfig({ out: '/tmp/x', 'reformat-model': 'bot' })).toEqual({ ok: false, message: "--reformat-model: 'bot' is not an LLM spec (openai:<model> or mistral:<model>)" });
    const file = 'agent1:\n  spec: openai:mistralai/Mixtral-8x7B-Instruct-v0.1\n  baseURL: https://api.together.xyz/v1\n  reformat: { spec: openai:gpt-3.5-turbo, baseURL: https://api.openai.com/v1 }\n';
    expect(parseExperiment(file, 'e.yaml')).toMatchObject({ ok: true, config: { agents: [{ reformat: { spec: 'openai:gpt-3.5-turbo', baseURL: 'https://api.openai.com/v1' } }] } });
    expect(parseExperiment('agent1:\n  spec: openai:x\n  reformat: { spec: bot }\n', 'e.yaml')).toMatchObject({ ok: false, message: expect.stringContaining('must be an LLM spec') });
  });
});
