import { describe, expect, it } from 'vitest';
import { resolveJudgeView } from '../simulation/index.js';
import { parseExperiment } from './experiment.js';
import { buildRunConfig } from './plan/run-config.js';
import { planLines, type ArmPlan } from './plan/dry-run.js';

describe('judgeView: an experiment key and a run flag, recorded with the run, parley eval\'s default', () => {
  it('is read from an experiment file (shared or per arm), validated with the file line, and lands in the run config', () => {
    expect(parseExperiment('protocol: paper\njudgeView: parley\n', 'e.yaml')).toEqual({ ok: true, config: { protocol: 'paper', judgeView: 'parley' } });
    expect(parseExperiment('protocol: paper\njudgeView: sotopia\n', 'e.yaml')).toEqual({ ok: false, message: "e.yaml:2: judgeView: 'sotopia' is not a judge view (allowed: paper, parley)" });
    const arms = parseExperiment('out: runs/x\njudgeView: paper\narms:\n  rich:\n    judgeView: parley\n  plain: {}\n', 'e.yaml');
    expect(arms.ok && arms.arms!.map((a) => [a.name, a.config.judgeView])).toEqual([['rich', 'parley'], ['plain', 'paper']]);
  });

  it('comes from --judge-view on parley run (flags over the file) and is refused when it names no view', () => {
    const built = buildRunConfig({ out: '/tmp/x', 'judge-view': 'paper' });
    expect(built.ok && built.config.judgeView).toBe('paper');
    expect(buildRunConfig({ out: '/tmp/x', 'judge-view': 'rich' })).toEqual({ ok: false, message: "--judge-view: 'rich' is not one of paper, parley" });
    expect(buildRunConfig({ out: '/tmp/x' }).ok && (buildRunConfig({ out: '/tmp/x' }) as { config: { judgeView?: string } }).config.judgeView).toBeUndefined();
  });

  it('parley eval: the flag, else the recorded view, else the protocol\'s default', () => {
    expect(resolveJudgeView('parley', 'paper', 'paper')).toBe('parley');
    expect(resolveJudgeView(undefined, 'parley', 'paper')).toBe('parley');
    expect(resolveJudgeView(undefined, 'paper', 'parley')).toBe('paper');
    expect(resolveJudgeView(undefined, undefined, 'paper')).toBe('paper');
    expect(resolveJudgeView(undefined, 'nonsense', 'parley')).toBe('parley');
    expect(resolveJudgeView('rich', undefined, 'paper')).toBeNull();
  });

  it('the dry run names the judge and the view it will get', () => {
    const arm = (judge: ArmPlan['judge']): ArmPlan => ({ name: 'a', out: 'runs/a', protocol: 'paper', judgeOnlyTo: [], onUnparsable: 'none', onProviderError: 'none', reformat: {}, judge, scenarios: 1, byMode: { agents: 1 }, episodes: 1, models: {} });
    expect(planLines([arm({ spec: 'openai:gpt-4-0613', view: 'paper', recorded: false })])).toContain("  judge openai:gpt-4-0613 (parley eval): the paper view (SOTOPIA's judge information only), the protocol's default (judgeView)");
    expect(planLines([arm({ spec: 'openai:gpt-4-0613', view: 'parley', recorded: true })])).toContain("  judge openai:gpt-4-0613 (parley eval): Parley's view (relationship, every profile field, task data), as judgeView sets it");
    expect(planLines([arm(null)]).some((l) => l.includes('judge openai'))).toBe(false);
  });
});
