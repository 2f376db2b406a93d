import { describe, expect, it } from 'vitest';
import { CANARY, craigslistFixture, mutualFriendsFixture, openFixture } from '../test/fixtures/scenarios.js';
import { observationFrames, observe } from './observe.js';
import { makeLimits, SCRIPT_SEAT, type World } from './world.js';
import type { Scenario } from '../scenarios/model.js';
import { type Mode } from '../protocol/index.js';
import { PARLEY_PROTOCOL } from '../simulation/index.js';

const world = (scenario: Scenario, mode: Mode): World => ({ episodeId: 'ep-1', scenario, mode, limits: makeLimits(20, 1000) });
const welcomeOf = (w: World, seat: string) => {
  const o = observe(w, seat);
  if (o.kind !== 'seat') throw new Error('not a seat observation');
  return o;
};

describe('observe(): partners by relationship level (SOTOPIA rules)', () => {
  it('level 0 stranger: nothing at all, not even the name', () => {
    const { welcome } = welcomeOf(world(openFixture(0), 'agents'), 'A');
    expect(welcome.partners).toEqual([{ seat: 'B', relationship: 0, profile: {} }]);
  });

  it('level 1 know_by_name: the name only', () => {
    const { welcome } = welcomeOf(world(openFixture(1), 'agents'), 'A');
    expect(welcome.partners).toEqual([{ seat: 'B', relationship: 1, profile: { name: 'Bea Marsh' } }]);
  });

  it('level 2 acquaintance: the public profile fields', () => {
    const { welcome } = welcomeOf(world(openFixture(2), 'agents'), 'A');
    expect(welcome.partners[0]).toEqual({
      seat: 'B',
      relationship: 2,
      profile: { name: 'Bea Marsh', age: 34, gender: 'woman', occupation: 'librarian', pronouns: 'she/her', publicInfo: 'Bea Marsh likes chess.' },
    });
  });

  // Issue 9: the relationship story is judge-only by default (SOTOPIA's stories often name secrets).
  it.each([3, 4, 5])('level %i: everything but the secret; the story stays with the judge', (level) => {
    const { welcome } = welcomeOf(world(openFixture(level), 'agents'), 'A');
    const partner = welcome.partners[0]!;
    expect(partner.profile).toMatchObject({ name: 'Bea Marsh', personality: 'curious and calm', mbti: 'INTJ', publicInfo: 'Bea Marsh likes chess.' });
    expect(partner.profile.secret).toBeUndefined();
    expect(partner.sharedHistory).toBeUndefined();
  });

  it('--show-relationship-story shares the story from friend level up, never below', () => {
    const opted = (level: number) => ({ ...world(openFixture(level), 'agents'), protocol: { ...PARLEY_PROTOCOL, showRelationshipStory: true } });
    for (const level of [3, 4, 5]) expect(welcomeOf(opted(level), 'A').welcome.partners[0]!.sharedHistory).toBe('STORY: they grew up on the same street.');
    for (const level of [0, 1, 2]) expect(welcomeOf(opted(level), 'A').welcome.partners[0]!.sharedHistory).toBeUndefined();
  });
});

describe('observe(): own view, narrative, modes', () => {
  it('gives a seat its own full profile with secret, goal, hints and task', () => {
    const { welcome } = welcomeOf(world(mutualFriendsFixture(), 'agents'), 'A');
    expect(welcome.self.profile.secret).toBe(CANARY.secretA);
    expect(welcome.self.goal).toContain(CANARY.goalA);
    expect(welcome.self.hints).toEqual([{ kind: 'strategy_hint', text: 'ask about schools' }]);
    expect(welcome.self.task?.kind).toBe('mutual_friends');
    expect(welcome.limits).toEqual({ maxTurns: 20, turnDeadlineMs: 1000, actions: ['none', 'speak', 'non-verbal communication', 'action', 'leave'] });
  });

  it('shows a narrative segment only to the seats it is visible to', () => {
    const w = world(mutualFriendsFixture(), 'agents');
    expect(welcomeOf(w, 'A').welcome.scenario.text).toContain('PRIVATE-NOTE-FOR-A');
    expect(welcomeOf(w, 'B').welcome.scenario.text).not.toContain('PRIVATE-NOTE-FOR-A');
    expect(welcomeOf(w, 'B').welcome.scenario.text).toContain('one friend in common');
  });

  it('agents mode: no partner goal, secret or task anywhere, and no peer.state', () => {
    const o = welcomeOf(world(craigslistFixture(), 'agents'), 'A');
    expect(o.peerStates).toEqual([]);
    const text = JSON.stringify(observationFrames(o));
    for (const s of [CANARY.goalB, CANARY.secretB, CANARY.judge, '"seller"']) expect(text).not.toContain(s);
  });

  it('mindreaders mode: the partner private state arrives in a peer.state frame after the welcome', () => {
    const o = welcomeOf(world(craigslistFixture(), 'mindreaders'), 'A');
    expect(JSON.stringify(o.welcome)).not.toContain(CANARY.goalB);
    expect(o.peerStates).toHaveLength(1);
    const ps = o.peerStates[0]!;
    expect(ps.reason).toBe('mindreaders');
    expect(ps.state).toMatchObject({ seat: 'B', goal: expect.stringContaining(CANARY.goalB), profile: { secret: CANARY.secretB }, task: { role: 'seller', target: 100 } });
    expect(observationFrames(o).map((f) => f.type)).toEqual(['seat.welcome', 'peer.state']);
  });

  it('shares only the fields a scenario seat lists in `shares`, outside mindreaders mode', () => {
    const base = openFixture(0);
    const scenario = { ...base, seats: base.seats.map((s) => (s.seat === 'B' ? { ...s, shares: ['goal' as const] } : s)) };
    const oA = welcomeOf(world(scenario, 'agents'), 'A');
    expect(oA.peerStates).toHaveLength(1);
    expect(oA.peerStates[0]).toMatchObject({ reason: 'shared_field', state: { seat: 'B', goal: expect.stringContaining(CANARY.goalB), task: null, profile: {} } });
    expect(JSON.stringify(oA.peerStates)).not.toContain(CANARY.secretB);
    expect(welcomeOf(world(scenario, 'agents'), 'B').peerStates).toEqual([]);
  });

  it('script writer: both seats in full, all narrative, never judge-only text', () => {
    const o = observe(world(mutualFriendsFixture(), 'script'), SCRIPT_SEAT);
    if (o.kind !== 'script') throw new Error('expected a script observation');
    const { background } = o.request;
    expect(background.seats.map((s) => [s.seat, s.profile.secret])).toEqual([['A', CANARY.secretA], ['B', CANARY.secretB]]);
    expect(background.scenario.text).toContain('PRIVATE-NOTE-FOR-A');
    const text = JSON.stringify(o.request);
    expect(text).toContain(CANARY.goalB);
    expect(text).not.toContain('CANARY-JUDGE-ONLY');
  });

  it('never puts judge-only text in any observation of any mode', () => {
    for (const mode of ['script', 'agents', 'mindreaders'] as const) {
      for (const scenario of [mutualFriendsFixture(), craigslistFixture(), openFixture(5)]) {
        const w = world(scenario, mode);
        const seats = mode === 'script' ? [SCRIPT_SEAT] : ['A', 'B'];
        for (const seat of seats) expect(JSON.stringify(observationFrames(observe(w, seat)))).not.toContain('CANARY-JUDGE-ONLY');
      }
    }
  });
});
