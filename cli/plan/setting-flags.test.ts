import { describe, expect, it } from 'vitest';
import { RunConfig } from '../../orchestrator/run-config.js';
import { SETTING_KEYS, SETTINGS } from '../../simulation/index.js';
import { CONFIG_FLAGS, RUN_FLAGS } from '../commands/run.js';
import { Arm, Experiment } from '../experiment.js';
import { settingsFromFlags } from './setting-flags.js';

/** Issue 34: a simulation setting is one declaration (simulation/settings.ts); its flag, experiment key and run-config field follow. */
describe('simulation settings generate the flags, experiment keys and run config', () => {
  it('every declared setting has its flag, its experiment key and its run-config field', () => {
    for (const k of SETTING_KEYS) {
      const s = SETTINGS[k];
      expect((s.flags === 'config' ? CONFIG_FLAGS : RUN_FLAGS)[s.flag], s.flag).toBeDefined();
      expect(RUN_FLAGS[s.flag], `run takes --${s.flag}`).toBeDefined();
      expect(k in RunConfig.shape, `RunConfig.${k}`).toBe(true);
      expect(k in (s.arm ? Arm : Experiment).shape, `experiment key ${k}`).toBe(true);
    }
  });

  it('checks each kind of flag and names the flag in its one-line refusal', () => {
    expect(settingsFromFlags({ protocol: 'paper', 'leak-judge-only': ['script'], 'show-relationship-story': true, mindread: ' agent1<-agent2 ' })).toEqual({
      ok: true,
      values: { protocol: 'paper', leakJudgeOnly: ['script'], showRelationshipStory: true, mindread: 'agent1<-agent2' },
    });
    expect(settingsFromFlags({ 'stop-rule': 'never' })).toEqual({ ok: false, message: "--stop-rule: 'never' is not one of code, paper" });
    expect(settingsFromFlags({ 'leak-judge-only': ['script', 'judge'] })).toEqual({ ok: false, message: "--leak-judge-only: 'judge' is not one of script, mindreaders" });
    const bad = settingsFromFlags({ mindread: 'agent1' });
    expect(bad.ok === false && bad.message.startsWith('--mindread: ')).toBe(true);
  });
});
