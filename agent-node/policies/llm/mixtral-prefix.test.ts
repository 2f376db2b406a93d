import { describe, expect, it } from 'vitest';
import { stripOwnNamePrefix } from './mixtral-prefix.js';

describe('Mixtral-8x7B name prefix (SOTOPIA LLMAgent.aact, paper protocol)', () => {
  const say = (argument: string) => ({ type: 'speak' as const, argument });
  const mixtral = 'mistralai/Mixtral-8x7B-Instruct-v0.1';
  it('strips a leading "<own name>: " or "<own name> said: " from Mixtral-8x7B speech only', () => {
    expect(stripOwnNamePrefix(say('Ava Lee: hello'), mixtral, 'Ava Lee').argument).toBe('hello');
    expect(stripOwnNamePrefix(say('Ava Lee said: "hello"'), mixtral, 'Ava Lee').argument).toBe('"hello"');
    expect(stripOwnNamePrefix(say('Noah: hello'), mixtral, 'Ava Lee').argument).toBe('Noah: hello');
    expect(stripOwnNamePrefix(say('Ava Lee: hello'), 'gpt-3.5-turbo-0613', 'Ava Lee').argument).toBe('Ava Lee: hello');
    expect(stripOwnNamePrefix({ type: 'action', argument: 'Ava Lee: waves' }, mixtral, 'Ava Lee').argument).toBe('Ava Lee: waves');
  });
});
