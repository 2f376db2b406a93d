import { describe, expect, it } from 'vitest';
import { parseMove, type Action, type Friend, type MutualFriendsPrivate, type TurnEvent } from '../../../../protocol/index.js';
import type { SeatView } from '../../../policy.js';
import { createBotPolicy } from '../index.js';
import { friendLists, peerOf, playEpisode, transcript, welcome } from '../testing/fixtures.js';
import { decideMutualFriends } from './agents.js';
import { buildBelief } from './belief.js';

const f = (Name: string, School: string, Company: string): Friend => ({ Name, School, Company });
const MINE: MutualFriendsPrivate = {
  kind: 'mutual_friends',
  attributes: ['Name', 'School', 'Company'],
  friends: [
    f('Ines', 'Pinecrest College', 'Meridian Rail'),
    f('Bram', 'Pinecrest College', 'Vireo Robotics'),
    f('Dario', 'Old Quarry College', 'Meridian Rail'),
    f('Greta', 'Redwater Polytechnic', 'Tidewell Energy'),
  ],
};

let turnNo = 0;
const ev = (seat: string, action: Action): TurnEvent => ({ v: 1, id: `e${turnNo}`, type: 'turn.event', turn: turnNo++, seat, action });
const say = (seat: string, text: string) => ev(seat, { type: 'speak', argument: text });
function viewWith(events: TurnEvent[], task = MINE): SeatView {
  return { welcome: welcome({ episodeId: 'ep-mf', seat: 'agent1', kind: 'mutual_friends', task }), peers: [], events };
}
const decide = (view: SeatView) =>
  decideMutualFriends(view, { v: 1, id: 'r', type: 'turn.request', turn: view.events.length, actions: ['none', 'speak', 'non-verbal communication', 'action', 'leave'], deadlineMs: 1000 }, MINE);
const names = MINE.friends.map((x) => x.Name!);

describe('MutualFriends bot (agents mode)', () => {
  it('answers a question truthfully with a count, describing friends without naming them', () => {
    turnNo = 0;
    const action = decide(viewWith([say('agent2', 'Hi! Did any of your friends go to Pinecrest College?')]));
    expect(action.type).toBe('speak');
    expect(action.argument).toMatch(/^Yes, I know two people who went to Pinecrest College: one works at Meridian Rail, another works at Vireo Robotics\./);
    for (const n of names) expect(action.argument).not.toContain(n);
  });

  it("says no for a value it does not have, even one it cannot recognise", () => {
    turnNo = 0;
    expect(decide(viewWith([say('agent2', 'Do you know anyone who works at Globex?')])).argument).toMatch(/^No, I don't think I know anyone like that\./);
    turnNo = 0;
    expect(decide(viewWith([say('agent2', 'Do any of your friends work at Tidewell Energy?')])).argument).toMatch(/^Yes, I know someone who works at Tidewell Energy/);
  });

  it('narrows candidates from denials and selects when one is left', () => {
    turnNo = 0;
    const events = [
      say('agent1', 'Did any of your friends go to Pinecrest College?'),
      say('agent2', "No, none of my friends went there. I don't know anyone at Tidewell Energy either."),
    ];
    const b = buildBelief(viewWith(events), MINE);
    expect(b.candidates.map((x) => x.Name)).toEqual(['Dario']);
    expect(parseMove(decide(viewWith(events)))).toEqual({ move: 'select', name: 'Dario' });
  });

  it('reads a bare "no" as the answer to its own pending question', () => {
    turnNo = 0;
    const events = [say('agent1', 'Do you know anyone who works at Meridian Rail?'), say('agent2', 'Nope, sorry.')];
    expect(buildBelief(viewWith(events), MINE).candidates.map((x) => x.Name)).toEqual(['Bram', 'Greta']);
  });

  it('selects a name the partner asks about when that friend is on its list, and follows the partner’s pick', () => {
    turnNo = 0;
    expect(parseMove(decide(viewWith([say('agent2', 'Do you know Greta?')])))).toEqual({ move: 'select', name: 'Greta' });
    turnNo = 0;
    expect(parseMove(decide(viewWith([ev('agent2', { type: 'action', argument: 'select Bram' })])))).toEqual({ move: 'select', name: 'Bram' });
  });

  it('searches on when the partner does not know its pick, and leaves once both picked the same friend', () => {
    turnNo = 0;
    const denied = [ev('agent1', { type: 'action', argument: 'select Ines' }), say('agent2', "I don't know Ines.")];
    const b = buildBelief(viewWith(denied), MINE);
    expect(b.mySelection).toBeNull();
    expect(b.candidates.map((x) => x.Name)).not.toContain('Ines');
    turnNo = 0;
    const both = [ev('agent1', { type: 'action', argument: 'select Dario' }), ev('agent2', { type: 'action', argument: 'select Dario' })];
    expect(decide(viewWith(both)).type).toBe('leave');
  });

  it('usually but not always finds the shared friend within 20 turns, never listing its friends by name', async () => {
    let wins = 0;
    const N = 40;
    for (let s = 1; s <= N; s++) {
      const { a, b, answer } = friendLists(s);
      const played = await playEpisode({ episodeId: `ep-${s}`, kind: 'mutual_friends', tasks: [a, b], mode: 'agents', policies: [createBotPolicy('bot'), createBotPolicy('bot')] });
      expect(played.failures).toEqual([]);
      expect(played.events.length).toBeLessThanOrEqual(20);
      if (played.selections.agent1 === answer.Name && played.selections.agent2 === answer.Name) wins++;
      for (const [seat, list] of [['agent1', a], ['agent2', b]] as const) {
        const own = list.friends.map((x) => x.Name!);
        const spoken = played.events.filter((e) => e.seat === seat && e.action.type === 'speak').map((e) => e.action.argument);
        // At most one of its own friends' names per utterance, and never the whole list over the episode.
        for (const text of spoken) expect(own.filter((n) => text.includes(n)).length, text).toBeLessThanOrEqual(1);
        const named = own.filter((n) => spoken.some((t) => t.includes(n)));
        expect(named.length, transcript(played.events)).toBeLessThan(own.length);
      }
    }
    expect(wins / N).toBeGreaterThanOrEqual(0.6);
    expect(wins).toBeLessThan(N);
  });

  it('is deterministic for an episode id and seat', async () => {
    const { a, b } = friendLists(7);
    const run = (id: string) => playEpisode({ episodeId: id, kind: 'mutual_friends', tasks: [a, b], mode: 'agents', policies: [createBotPolicy('bot'), createBotPolicy('bot')] });
    const first = await run('ep-same');
    const again = await run('ep-same');
    expect(transcript(again.events)).toBe(transcript(first.events));
    const others = await Promise.all(['ep-x', 'ep-y', 'ep-z'].map(run));
    expect(others.some((o) => transcript(o.events) !== transcript(first.events))).toBe(true);
  });
});

describe('MutualFriends bot (mindreaders mode)', () => {
  it('intersects both lists from peer.state, names the shared friend and both select it within a few turns', async () => {
    for (let s = 1; s <= 20; s++) {
      const { a, b, answer } = friendLists(s);
      const played = await playEpisode({ episodeId: `mr-${s}`, kind: 'mutual_friends', tasks: [a, b], mode: 'mindreaders', policies: [createBotPolicy('bot'), createBotPolicy('bot')] });
      expect(played.selections).toEqual({ agent1: answer.Name, agent2: answer.Name });
      expect(played.events.length).toBeLessThanOrEqual(5);
      expect(played.events[0]!.action.argument).toContain(answer.Name!);
    }
  });

  it('plays like agents mode when the peer state carries no friend list', () => {
    turnNo = 0;
    const view: SeatView = { ...viewWith([say('agent2', 'Did any of your friends go to Pinecrest College?')]), peers: [peerOf('agent2', null)] };
    const policy = createBotPolicy('bot');
    return policy.act(view, { v: 1, id: 'r', type: 'turn.request', turn: 1, actions: ['speak', 'action', 'leave'], deadlineMs: 1000 }, new AbortController().signal).then((r) => {
      expect(r.ok && r.action.argument).toMatch(/^Yes, I know two people who went to Pinecrest College/);
    });
  });
});
