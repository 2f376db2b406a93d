import { describe, expect, it } from 'vitest';
import { CANARY, mutualFriendsFixture, openFixture } from '../test/fixtures/scenarios.js';
import { type Mode } from '../protocol/index.js';
import { PAPER_PROTOCOL, type SimulationProtocol } from '../simulation/index.js';
import type { Scenario } from '../scenarios/model.js';
import { observationFrames, observe, receivesJudgeOnly } from './observe.js';
import { makeLimits, SCRIPT_SEAT, type World } from './world.js';

const paper = (over: Partial<SimulationProtocol> = {}): SimulationProtocol => ({ ...PAPER_PROTOCOL, ...over });
const world = (scenario: Scenario, mode: Mode, protocol = paper()): World => ({ episodeId: 'ep-1', scenario, mode, limits: makeLimits(20, 1000), protocol });
const welcomeOf = (w: World, seat: string) => {
  const o = observe(w, seat);
  if (o.kind !== 'seat') throw new Error('not a seat observation');
  return o;
};
const UNRENDERED = ['bigFive', 'mbti', 'moralValues', 'schwartzValues', 'decisionStyle'];

describe('observe() under --protocol paper', () => {
  it('names the partner at every relationship level, stranger included', () => {
    for (const level of [0, 1, 2, 3, 4, 5]) {
      expect(welcomeOf(world(openFixture(level), 'agents'), 'A').welcome.partners[0]!.profile.name).toBe('Bea Marsh');
    }
  });

  it('--backgrounds code: the renderer\'s reach per level, never a field SOTOPIA does not render, never the secret', () => {
    const fields = (level: number) => Object.keys(welcomeOf(world(openFixture(level), 'agents'), 'A').welcome.partners[0]!.profile).sort();
    expect(fields(0)).toEqual(['name']);
    expect(fields(1)).toEqual(['name']);
    expect(fields(2)).toEqual(['age', 'gender', 'name', 'occupation', 'pronouns', 'publicInfo']);
    for (const level of [3, 4, 5]) expect(fields(level)).toEqual(['age', 'gender', 'name', 'occupation', 'personality', 'pronouns', 'publicInfo']);
  });

  it('--backgrounds appendix: every rendered field but the secret at any level', () => {
    const p = welcomeOf(world(openFixture(0), 'agents', paper({ backgrounds: 'appendix' })), 'A').welcome.partners[0]!.profile;
    expect(Object.keys(p).sort()).toEqual(['age', 'gender', 'name', 'occupation', 'personality', 'pronouns', 'publicInfo']);
  });

  it('--backgrounds relationship: Parley\'s levels over the rendered fields, the name always', () => {
    const p = (level: number) => welcomeOf(world(openFixture(level), 'agents', paper({ backgrounds: 'relationship' })), 'A').welcome.partners[0]!.profile;
    expect(Object.keys(p(0))).toEqual(['name']);
    expect(Object.keys(p(3)).sort()).toEqual(['age', 'gender', 'name', 'occupation', 'personality', 'pronouns', 'publicInfo']);
  });

  it('the own profile and a mindreader\'s view carry only the rendered fields, secret included', () => {
    const o = welcomeOf(world(openFixture(5), 'mindreaders'), 'A');
    for (const f of UNRENDERED) {
      expect(o.welcome.self.profile).not.toHaveProperty(f);
      expect(o.peerStates[0]!.state.profile).not.toHaveProperty(f);
    }
    expect(o.welcome.self.profile.secret).toBe(CANARY.secretA);
    expect(o.peerStates[0]!.state.profile.secret).toBe(CANARY.secretB);
  });

  it('tells the seat the protocol and how to play it (its capabilities), and keeps the story with the judge', () => {
    const o = welcomeOf(world(openFixture(5), 'agents'), 'A');
    expect(o.welcome.protocol).toEqual({
      name: 'paper',
      backgrounds: 'code',
      scriptFormat: 'text',
      seat: { prompts: 'sotopia', replyFormat: 'in-prompt', taskMoves: false, reformat: 'sotopia', stripOwnName: true },
      // SOTOPIA's runner scripts sample agents at 1.0 (generate.gin); the script writer is not told it (it stays at 0.7).
      agentTemperature: 1,
      // SOTOPIA's parser reads its replies (the script writer's free text has its own reader).
      replyReading: 'code',
    });
    const script = observe(world(openFixture(5), 'script'), SCRIPT_SEAT);
    expect(script).toHaveProperty('request.protocol.name', 'paper');
    expect(script).not.toHaveProperty('request.protocol.agentTemperature');
    expect(script).not.toHaveProperty('request.protocol.replyReading');
    expect(welcomeOf(world(openFixture(5), 'agents', paper({ agentTemperature: 'paper' })), 'A').welcome.protocol?.agentTemperature).toBe(0.7);
    expect(JSON.stringify(observationFrames(o))).not.toContain('STORY:');
  });

  it('--leak-judge-only reaches exactly the generators named, never an agents-mode seat', () => {
    const both = paper({ leakJudgeOnly: ['script', 'mindreaders'] });
    const scenario = mutualFriendsFixture();
    expect(receivesJudgeOnly(world(scenario, 'agents', both), 'A')).toBe(false);
    expect(JSON.stringify(observationFrames(observe(world(scenario, 'agents', both), 'A')))).not.toContain(CANARY.judge);
    expect(JSON.stringify(observationFrames(observe(world(scenario, 'mindreaders', both), 'A')))).toContain(CANARY.judge);
    expect(JSON.stringify(observationFrames(observe(world(scenario, 'script', both), SCRIPT_SEAT)))).toContain(CANARY.judge);
    // Only the target named: script alone does not reach mindreaders.
    const scriptOnly = paper({ leakJudgeOnly: ['script'] });
    expect(JSON.stringify(observationFrames(observe(world(scenario, 'mindreaders', scriptOnly), 'A')))).not.toContain(CANARY.judge);
    expect(JSON.stringify(observationFrames(observe(world(scenario, 'script', paper()), SCRIPT_SEAT)))).not.toContain(CANARY.judge);
  });
});
