import { describe, expect, it } from 'vitest';
import type { EpisodeRecord } from '../../protocol/index.js';
import type { ForkParent } from '../../orchestrator/fork/parent.js';
import { RunConfig } from '../../orchestrator/run-config.js';
import { mutualFriendsFixture } from '../../test/fixtures/scenarios.js';
import { buildForkConfig } from './fork-config.js';

const scenario = mutualFriendsFixture();
const parent = (agents: RunConfig['agents']): ForkParent => ({
  dir: '/tmp/parley-parent',
  runId: 'R',
  config: RunConfig.parse({ out: '/tmp/parley-parent', modes: ['agents', 'mindreaders'], maxTurns: 8, agents, replay: '/tmp/old', limit: 3 }),
  protocol: undefined,
  record: { episodeId: 'ep', mode: 'agents' } as EpisodeRecord,
  scenario,
});
const OUT = { out: '/tmp/parley-fork' };

describe('the fork run config (parley fork)', () => {
  it("keeps the parent's settings per seat, changes only what is given, and names the parent", () => {
    const p = parent([{ spec: 'openai:gpt-3.5-turbo', params: { temperature: 0.5 }, replayDir: '/tmp/old' }]);
    const built = buildForkConfig(p, { ...OUT, agent2: 'openai:gpt-4o', repeats: 3, param: ['agent1.top_p=0.9'] }, [4], ['B.goal:A']);
    if (!built.ok) throw new Error(built.message);
    const c = built.config;
    expect(c.agents.map((a) => [a.spec, a.params, a.replayDir])).toEqual([['openai:gpt-3.5-turbo', { temperature: 0.5, top_p: 0.9 }, undefined], ['openai:gpt-4o', {}, undefined]]);
    expect(c).toMatchObject({ modes: ['agents'], repeats: 3, maxTurns: 8, forkAt: [4], fork: { parent: '/tmp/parley-parent', parentRun: 'R', episode: 'ep', reveal: ['B.goal:A'] } });
    expect(c.replay).toBeUndefined();
    expect(c.limit).toBeUndefined();
    const later = buildForkConfig(p, { ...OUT, 'max-turns': 30 }, [4], []);
    expect(later.ok && later.config.maxTurns).toBe(30);
  });

  it('refuses, with the flag named, a change that would alter the replayed prefix, and a bad --param', () => {
    const p = parent([{ spec: 'openai:gpt-3.5-turbo', params: {} }]);
    const refused = (flags: Record<string, unknown>) => {
      const b = buildForkConfig(p, { ...OUT, ...flags } as never, [4], []);
      return b.ok ? 'accepted' : b.message;
    };
    expect(refused({ scenarios: 'other.jsonl' })).toMatch(/^--scenarios other\.jsonl would change the replayed prefix \(episode ep was played with builtin\)/);
    expect(refused({ modes: ['mindreaders'] })).toMatch(/^--modes mindreaders would change the replayed prefix: episode ep was played in agents mode/);
    expect(refused({ protocol: 'paper' })).toMatch(/^--protocol paper would change the replayed prefix/);
    expect(refused({ seed: 7 })).toMatch(/^--seed 7 would change/);
    expect(refused({ modes: ['agents'], seed: 1 })).toBe('accepted');
    expect(refused({ out: '/tmp/parley-parent' })).toMatch(/is the parent run/);
    expect(refused({ param: ['agent2.temprature=0.2'] })).toMatch(/'temprature' is not a openai parameter/);
    expect(refused({ param: ['agent3.temperature=0.2'] })).toMatch(/has 2 seats/);
    expect(refused({ param: ['temperature=0.2'] })).toMatch(/expected SEAT\.KEY=VALUE/);
  });
});
