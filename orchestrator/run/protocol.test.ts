import { describe, expect, it } from 'vitest';
import { mutualFriendsFixture } from '../../test/fixtures/scenarios.js';
import { RunConfig } from '../run-config.js';
import { episodeId } from './plan.js';
import { isDefaultParley, protocolKey, resolveProtocol } from './protocol.js';

const sotopia = { ...mutualFriendsFixture(), source: 'sotopia' };
const builtin = { ...mutualFriendsFixture(), source: 'builtin' };
const config = (over: Record<string, unknown> = {}) => RunConfig.parse({ out: '/tmp/x', ...over });

describe('resolveProtocol', () => {
  it('defaults: paper for SOTOPIA scenario sets, parley for anything else (the bot demo)', () => {
    expect(resolveProtocol(config(), [sotopia]).name).toBe('paper');
    expect(resolveProtocol(config(), [sotopia, builtin]).name).toBe('parley');
    expect(resolveProtocol(config(), [builtin])).toEqual({ name: 'parley', backgrounds: 'relationship', scriptFormat: 'json', stopRule: 'code', leakJudgeOnly: [], showRelationshipStory: false });
  });

  it('paper defaults and overrides', () => {
    expect(resolveProtocol(config({ protocol: 'paper' }), [builtin])).toEqual({ name: 'paper', backgrounds: 'code', scriptFormat: 'text', stopRule: 'code', leakJudgeOnly: [], showRelationshipStory: false });
    const p = resolveProtocol(config({ backgrounds: 'appendix', scriptFormat: 'json', stopRule: 'paper', leakJudgeOnly: ['script', 'script'], showRelationshipStory: true }), [sotopia]);
    expect(p).toEqual({ name: 'paper', backgrounds: 'appendix', scriptFormat: 'json', stopRule: 'paper', leakJudgeOnly: ['script'], showRelationshipStory: true });
    expect(protocolKey(p)).toBe('paper/appendix/json/paper/leak:script/story');
  });

  it('a paper-only setting under parley is an error naming the flag, never silently ignored', () => {
    expect(() => resolveProtocol(config({ protocol: 'parley', backgrounds: 'code' }), [sotopia])).toThrow(/--backgrounds only apply under --protocol paper/);
  });

  it('episode ids stay as they were under default parley, and differ per protocol otherwise', () => {
    const base = { scenarioId: 's', pairId: 'p', mode: 'agents' as const, specs: ['bot', 'bot'], repeat: 0 };
    expect(isDefaultParley(resolveProtocol(config(), [builtin]))).toBe(true);
    expect(episodeId({ ...base, protocol: 'paper/code/text/code' })).not.toBe(episodeId(base));
    expect(episodeId(base)).toBe('s.agents.r0.' + episodeId(base).split('.').pop());
  });
});
