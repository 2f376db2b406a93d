import { describe, expect, it } from 'vitest';
import type { Action, TurnRecord } from '../../protocol/index.js';
import { generateGroupScenarios } from '../../scenarios/generate/groups.js';
import { nextSpeaker } from './turn-order.js';
import { terminationAfter } from './termination.js';

const [mf, auction, split] = generateGroupScenarios(1) as [ReturnType<typeof generateGroupScenarios>[number], ReturnType<typeof generateGroupScenarios>[number], ReturnType<typeof generateGroupScenarios>[number]];
const turnsOf = (...moves: Array<[string, Action]>): TurnRecord[] => moves.map(([seat, action], turn) => ({ turn, seat, action, atMs: 0 }));
const say = (argument = 'hi'): Action => ({ type: 'speak', argument });
const leave: Action = { type: 'leave', argument: '' };
const act = (argument: string): Action => ({ type: 'action', argument });

describe('nextSpeaker (groups)', () => {
  it('goes round robin through every seat, skipping seats that left', () => {
    expect(nextSpeaker(mf, [])).toBe('agent1');
    expect(nextSpeaker(mf, turnsOf(['agent1', say()]))).toBe('agent2');
    expect(nextSpeaker(mf, turnsOf(['agent1', say()], ['agent2', say()], ['agent3', say()]))).toBe('agent1');
    expect(nextSpeaker(mf, turnsOf(['agent1', say()], ['agent2', leave]))).toBe('agent3');
    expect(nextSpeaker(mf, turnsOf(['agent1', say()], ['agent2', leave], ['agent3', say()]))).toBe('agent1');
    expect(nextSpeaker(mf, turnsOf(['agent1', say()], ['agent2', leave], ['agent3', say()], ['agent1', say()]))).toBe('agent3');
  });

  it('speaker_names_next: the participant the speaker named last speaks next, else round robin', () => {
    const named = { ...mf, turnOrder: 'speaker_names_next' as const };
    const third = mf.seats[2]!.character;
    const second = mf.seats[1]!.character;
    expect(nextSpeaker(named, turnsOf(['agent1', say(`What do you think, ${third.firstName ?? third.name}?`)]))).toBe('agent3');
    expect(nextSpeaker(named, turnsOf(['agent1', say(`${third.name}, or rather ${second.name}?`)]))).toBe('agent2');
    expect(nextSpeaker(named, turnsOf(['agent1', say('Anyone?')]))).toBe('agent2');
    // Naming oneself, or a seat that left, hands nothing over.
    expect(nextSpeaker(named, turnsOf(['agent3', leave], ['agent1', say(`Where did ${third.name} go?`)]))).toBe('agent2');
  });
});

describe('terminationAfter (groups)', () => {
  it('a leave ends a group only when all but one have left', () => {
    expect(terminationAfter(mf, turnsOf(['agent1', say()], ['agent2', leave]), 20)).toBeNull();
    expect(terminationAfter(mf, turnsOf(['agent1', say()], ['agent2', leave], ['agent3', leave]), 20)).toEqual({ reason: 'leave', seat: 'agent3' });
  });

  it('auction: the seller accepting a bid or quitting ends it; a buyer accepting does not', () => {
    expect(terminationAfter(auction, turnsOf(['agent1', say()], ['agent2', act('offer $100')], ['agent3', act('accept')]), 20)).toBeNull();
    expect(terminationAfter(auction, turnsOf(['agent1', act('accept')]), 20)).toBeNull();
    expect(terminationAfter(auction, turnsOf(['agent1', say()], ['agent2', act('offer $100')], ['agent3', act('offer $120')], ['agent1', act('accept')]), 20))
      .toEqual({ reason: 'task_end', detail: 'accept', seat: 'agent1' });
    expect(terminationAfter(auction, turnsOf(['agent1', act('quit')]), 20)).toEqual({ reason: 'task_end', detail: 'quit', seat: 'agent1' });
  });

  it('split: ends when a proposal has a majority of the three', () => {
    expect(terminationAfter(split, turnsOf(['agent1', act('propose 30/30/30')]), 20)).toBeNull();
    expect(terminationAfter(split, turnsOf(['agent1', act('propose 30/30/30')], ['agent2', act('reject')]), 20)).toBeNull();
    expect(terminationAfter(split, turnsOf(['agent1', act('propose 30/30/30')], ['agent2', act('reject')], ['agent3', act('accept')]), 20))
      .toEqual({ reason: 'task_end', detail: 'passed', seat: 'agent3' });
    // Shares that do not add up to the total are no proposal.
    expect(terminationAfter(split, turnsOf(['agent1', act('propose 50/50/50')], ['agent2', act('accept')]), 20)).toBeNull();
  });
});
