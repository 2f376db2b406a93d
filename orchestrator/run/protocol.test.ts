import { describe, expect, it } from 'vitest';
import { mutualFriendsFixture } from '../../test/fixtures/scenarios.js';
import { RunConfig } from '../run-config.js';
import { episodeId } from './plan.js';
import { isDefaultProtocol, protocolKey, resolveProtocol } from './protocol.js';

const sotopia = { ...mutualFriendsFixture(), source: 'sotopia' };
const builtin = { ...mutualFriendsFixture(), source: 'builtin' };
const config = (over: Record<string, unknown> = {}) => RunConfig.parse({ out: '/tmp/x', ...over });

/**
 * Checks that `setting` is none under paper and fail under parley by default (parley's default resolved
 * over `parleyOver`) and that either may be chosen; returns the two departures, resolved.
 */
function noneUnderPaperFailUnderParley(setting: 'onUnparsable' | 'onProviderError', parleyOver: typeof sotopia) {
  expect(resolveProtocol(config({ protocol: 'paper' }), [sotopia])[setting]).toBe('none');
  expect(resolveProtocol(config({ protocol: 'parley' }), [parleyOver])[setting]).toBe('fail');
  const paperFail = resolveProtocol(config({ protocol: 'paper', [setting]: 'fail' }), [sotopia]);
  const parleyNone = resolveProtocol(config({ protocol: 'parley', [setting]: 'none' }), [builtin]);
  expect([paperFail[setting], parleyNone[setting]]).toEqual(['fail', 'none']);
  return { paperFail, parleyNone };
}

describe('resolveProtocol', () => {
  it('defaults: paper for SOTOPIA scenario sets, parley for anything else (the bot demo)', () => {
    expect(resolveProtocol(config(), [sotopia]).name).toBe('paper');
    expect(resolveProtocol(config(), [sotopia, builtin]).name).toBe('parley');
    expect(resolveProtocol(config(), [builtin])).toEqual({ name: 'parley', backgrounds: 'relationship', scriptFormat: 'json', stopRule: 'code', agentTemperature: 'paper', replyReading: 'lenient', leakJudgeOnly: [], showRelationshipStory: false, onUnparsable: 'fail', onProviderError: 'fail', selection: 'all', persona: 'prose' });
  });

  it('paper defaults and overrides', () => {
    expect(resolveProtocol(config({ protocol: 'paper' }), [builtin])).toEqual({ name: 'paper', backgrounds: 'code', scriptFormat: 'text', stopRule: 'code', agentTemperature: 'code', replyReading: 'code', leakJudgeOnly: [], showRelationshipStory: false, onUnparsable: 'none', onProviderError: 'none', selection: 'first-valid', persona: 'prose' });
    const p = resolveProtocol(config({ backgrounds: 'appendix', scriptFormat: 'json', stopRule: 'paper', leakJudgeOnly: ['script', 'script'], showRelationshipStory: true }), [sotopia]);
    expect(p).toEqual({ name: 'paper', backgrounds: 'appendix', scriptFormat: 'json', stopRule: 'paper', agentTemperature: 'code', replyReading: 'code', leakJudgeOnly: ['script'], showRelationshipStory: true, onUnparsable: 'none', onProviderError: 'none', selection: 'first-valid', persona: 'prose' });
    expect(protocolKey(p)).toBe('paper/appendix/json/paper/temperature:code/reading:code/leak:script/story');
  });

  it('--on-unparsable: none under paper and fail under parley by default; either may be chosen; a departure is in the key', () => {
    const { paperFail, parleyNone } = noneUnderPaperFailUnderParley('onUnparsable', sotopia);
    // The selection rule (issue 42): SOTOPIA's first valid draw under paper, every episode under parley, either overridable.
    expect([paperFail.selection, parleyNone.selection]).toEqual(['first-valid', 'all']);
    expect(resolveProtocol(config({ protocol: 'paper', selection: 'all' }), [sotopia]).selection).toBe('all');
    expect(resolveProtocol(config({ protocol: 'parley', selection: 'first-valid' }), [builtin]).selection).toBe('first-valid');
    // The defaults keep the keys (and so the episode ids) of runs from before the switch; the agent temperature
    // and reply reading are named because today's paper defaults changed them (see definitions.test).
    expect(protocolKey(resolveProtocol(config({ protocol: 'paper' }), [sotopia]))).toBe('paper/code/text/code/temperature:code/reading:code');
    expect(protocolKey(paperFail)).toBe('paper/code/text/code/temperature:code/reading:code/unparsable:fail');
    expect(protocolKey(parleyNone)).toBe('parley/unparsable:none');
    expect(isDefaultProtocol(parleyNone)).toBe(false);
  });

  it("--on-provider-error: none under paper (SOTOPIA's agenerate_action caught every exception) and fail under parley; either may be chosen; a departure is in the key", () => {
    const { paperFail, parleyNone } = noneUnderPaperFailUnderParley('onProviderError', builtin);
    expect(protocolKey(paperFail)).toBe('paper/code/text/code/temperature:code/reading:code/provider-error:fail');
    expect(protocolKey(parleyNone)).toBe('parley/provider-error:none');
  });

  it("--agent-temperature: SOTOPIA's code (1.0) under paper by default, the paper's 0.7 as the option; the key names it unless it is what runs before the setting used (0.7)", () => {
    const code = resolveProtocol(config({ protocol: 'paper' }), [sotopia]);
    const text = resolveProtocol(config({ protocol: 'paper', agentTemperature: 'paper' }), [sotopia]);
    expect([code.agentTemperature, text.agentTemperature]).toEqual(['code', 'paper']);
    // Ids without the part were made by paper runs that sampled at 0.7: today's default must not reuse them.
    expect(protocolKey(code)).toBe('paper/code/text/code/temperature:code/reading:code');
    expect(protocolKey(text)).toBe('paper/code/text/code/reading:code');
    expect(() => resolveProtocol(config({ protocol: 'parley', agentTemperature: 'code' }), [builtin])).toThrow(/--agent-temperature only apply under --protocol paper/);
  });

  it("--reply-reading: SOTOPIA's parser under paper by default, Parley's lenient reading as the option; the key names it unless it is what runs before the setting used (lenient)", () => {
    expect(resolveProtocol(config({ protocol: 'paper' }), [sotopia]).replyReading).toBe('code');
    expect(protocolKey(resolveProtocol(config({ protocol: 'paper', replyReading: 'lenient' }), [sotopia]))).toBe('paper/code/text/code/temperature:code');
    // A run from before both settings: the same key, hence the same episode ids, as it was recorded with.
    expect(protocolKey(resolveProtocol(config({ protocol: 'paper', replyReading: 'lenient', agentTemperature: 'paper' }), [sotopia]))).toBe('paper/code/text/code');
    expect(() => resolveProtocol(config({ protocol: 'parley', replyReading: 'code' }), [builtin])).toThrow(/--reply-reading only apply under --protocol paper/);
  });

  it('a paper-only setting under parley is an error naming the flag, never silently ignored', () => {
    expect(() => resolveProtocol(config({ protocol: 'parley', backgrounds: 'code' }), [sotopia])).toThrow(/--backgrounds only apply under --protocol paper/);
  });

  it('episode ids stay as they were under default parley, and differ per protocol otherwise', () => {
    const base = { scenarioId: 's', pairId: 'p', mode: 'agents' as const, specs: ['bot', 'bot'], repeat: 0 };
    expect(isDefaultProtocol(resolveProtocol(config(), [builtin]))).toBe(true);
    expect(episodeId({ ...base, protocol: 'paper/code/text/code' })).not.toBe(episodeId(base));
    expect(episodeId(base)).toBe('s.agents.r0.' + episodeId(base).split('.').pop());
  });
});
