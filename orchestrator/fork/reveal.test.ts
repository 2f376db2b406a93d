import { describe, expect, it } from 'vitest';
import { CANARY, mutualFriendsFixture } from '../../test/fixtures/scenarios.js';
import { makeLimits, type World } from '../world.js';
import { observe, revealFrames } from '../observe.js';
import { profileAtLevel } from '../profile-view.js';
import { Scenario } from '../../scenarios/model.js';
import { parseReveal } from './reveal.js';

const SEATS = ['A', 'B'];

describe('--reveal FROM.FIELD:TO', () => {
  it('parses one field or several, against the scenario seats', () => {
    expect(parseReveal('B.goal:A', SEATS)).toEqual({ ok: true, reveal: { from: 'B', fields: ['goal'], to: 'A' } });
    expect(parseReveal('B.goal+secret+goal:A', SEATS)).toEqual({ ok: true, reveal: { from: 'B', fields: ['goal', 'secret'], to: 'A' } });
  });

  it('refuses anything else with a message naming the problem', () => {
    expect(parseReveal('B.goal', SEATS)).toMatchObject({ ok: false, message: expect.stringContaining('is not SEAT.FIELD:SEAT') });
    expect(parseReveal('B.wallet:A', SEATS)).toMatchObject({ ok: false, message: expect.stringContaining("'wallet' is not a private field") });
    expect(parseReveal('C.goal:A', SEATS)).toMatchObject({ ok: false, message: expect.stringContaining("no seat 'C'") });
    expect(parseReveal('A.goal:A', SEATS)).toMatchObject({ ok: false, message: expect.stringContaining('already knows') });
    expect(parseReveal('../B.goal:A', SEATS)).toMatchObject({ ok: false });
  });
});

describe('revealFrames (observe.ts)', () => {
  const world = (mode: World['mode']): World => ({ episodeId: 'e', scenario: mutualFriendsFixture(), mode, limits: makeLimits(6, 1000) });

  it('agents mode: the relationship view of the partner plus the revealed fields only, to the receiving seat only', () => {
    const frames = revealFrames(world('agents'), [{ from: 'B', fields: ['goal'], to: 'A' }]);
    expect([...frames.keys()]).toEqual(['A']);
    const [frame] = frames.get('A')!;
    expect(frame).toMatchObject({ type: 'peer.state', reason: 'fork_reveal', state: { seat: 'B', goal: expect.stringContaining(CANARY.goalB), hints: [], task: null } });
    expect(JSON.stringify(frame)).not.toContain(CANARY.secretB);
    const secret = revealFrames(world('agents'), [{ from: 'B', fields: ['secret'], to: 'A' }]).get('A')![0]!;
    expect(secret.state.profile.secret).toBe(CANARY.secretB);
    expect(secret.state.goal).toBe('');
  });

  it('mindreaders mode: what the seat already knew stays in the frame (a later peer.state replaces the earlier one)', () => {
    const [frame] = revealFrames(world('mindreaders'), [{ from: 'B', fields: ['goal'], to: 'A' }]).get('A')!;
    expect(frame!.state.goal).toContain(CANARY.goalB);
    expect(frame!.state.task).not.toBeNull();
    expect(frame!.state.profile.secret).toBe(CANARY.secretB);
  });

  it('several reveals of one partner to one seat become one frame', () => {
    const frames = revealFrames(world('agents'), [{ from: 'B', fields: ['goal'], to: 'A' }, { from: 'B', fields: ['task'], to: 'A' }]);
    expect(frames.get('A')).toHaveLength(1);
    expect(frames.get('A')![0]!.state.task).not.toBeNull();
  });
});

describe('a reveal delivers exactly what it names (issue 35, contract 3)', () => {
  // A group whose scenario-wide relationship is "friends" (3) while the A–B pair are strangers (0).
  const scenario = (() => {
    const s = JSON.parse(JSON.stringify(mutualFriendsFixture()));
    s.relationship = { level: 3 };
    s.relationships = [{ seats: ['A', 'B'], level: 0 }];
    return Scenario.parse(s);
  })();
  const world: World = { episodeId: 'e', scenario, mode: 'agents', limits: makeLimits(6, 1000) };
  const welcomed = observe(world, 'A');
  const shown = welcomed.kind === 'seat' ? welcomed.welcome.partners.find((p) => p.seat === 'B')!.profile : null;

  it("goal: the partner's goal and, of the partner, only what A's welcome showed (the pair's relationship, not the scenario's)", () => {
    expect(shown).not.toBeNull();
    const [frame] = revealFrames(world, [{ from: 'B', fields: ['goal'], to: 'A' }]).get('A')!;
    expect(frame!.state).toEqual({ seat: 'B', profile: shown, goal: scenario.seats[1]!.goal, hints: [], task: null });
    // Friends would have seen more of B (this is what the reveal once handed over).
    expect(Object.keys(profileAtLevel(scenario.seats[1]!.character, 3)).length).toBeGreaterThan(Object.keys(shown!).length);
  });

  it('profile excludes the secret, which is a field of its own', () => {
    const [profile] = revealFrames(world, [{ from: 'B', fields: ['profile'], to: 'A' }]).get('A')!;
    expect(profile!.state.profile.secret).toBeUndefined();
    expect(JSON.stringify(profile)).not.toContain(CANARY.secretB);
    expect(profile!.state.profile.name).toBe(scenario.seats[1]!.character.name);
    const [both] = revealFrames(world, [{ from: 'B', fields: ['secret', 'profile'], to: 'A' }]).get('A')!;
    expect(both!.state.profile.secret).toBe(CANARY.secretB);
  });
});
