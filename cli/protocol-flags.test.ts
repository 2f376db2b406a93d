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
});
