import { describe, expect, it } from 'vitest';
import { stripOwnNamePrefix } from './mixtral-prefix.js';

describe('Mixtral-8x7B own-name echo (SOTOPIA LLMAgent.aact, paper protocol)', () => {
  const say = (argument: string) => ({ type: 'speak' as const, argument });
  const mixtral = 'mistralai/Mixtral-8x7B-Instruct-v0.1';
  it('removes "<own name>: " or "<own name> said: " from Mixtral-8x7B replies only', () => {
    expect(stripOwnNamePrefix(say('Ava Lee: hello'), mixtral, 'Ava Lee').argument).toBe('hello');
    expect(stripOwnNamePrefix(say('Ava Lee said: "hello"'), mixtral, 'Ava Lee').argument).toBe('"hello"');
    expect(stripOwnNamePrefix(say('Noah: hello'), mixtral, 'Ava Lee').argument).toBe('Noah: hello');
    expect(stripOwnNamePrefix(say('Ava Lee: hello'), 'gpt-3.5-turbo-0613', 'Ava Lee').argument).toBe('Ava Lee: hello');
  });
  it('removes every occurrence, anywhere in the reply', () => {
    expect(stripOwnNamePrefix(say('Sure. Ava Lee: hi. Ava Lee: bye'), mixtral, 'Ava Lee').argument).toBe('Sure. hi. bye');
    expect(stripOwnNamePrefix(say('Well, Ava Lee said: ok'), mixtral, 'Ava Lee').argument).toBe('Well, ok');
  });
  it('applies to every action type, not only speech', () => {
    expect(stripOwnNamePrefix({ type: 'action', argument: 'Ava Lee: waves' }, mixtral, 'Ava Lee').argument).toBe('waves');
    expect(stripOwnNamePrefix({ type: 'non-verbal communication', argument: 'Ava Lee said: nods' }, mixtral, 'Ava Lee').argument).toBe('nods');
  });
  it('when "<own name>:" is present, only the colon form is removed (the code checks that one first)', () => {
    expect(stripOwnNamePrefix(say('Ava Lee said: x, Ava Lee: y'), mixtral, 'Ava Lee').argument).toBe('Ava Lee said: x, y');
  });
});
