import { describe, expect, it } from 'vitest';
import { isModelSeat, MODEL_SEAT_V8_FLAGS, tuneForModelSeat } from './v8-tiering.js';

describe('V8 flags of an agent process that plays model seats', () => {
  it('tells model seats from the others', () => {
    expect(isModelSeat({ spec: 'openai:gpt-4o-mini' })).toBe(true);
    expect(isModelSeat({ spec: 'mistral:mistral-small' })).toBe(true);
    expect(isModelSeat({ spec: 'replay:runs/x' })).toBe(true);
    expect(isModelSeat({ spec: 'bot:chatter' })).toBe(false);
    expect(isModelSeat({ spec: 'bot' })).toBe(false);
    expect(isModelSeat({ spec: 'human' })).toBe(false);
    expect(isModelSeat({ spec: 'nonsense:' })).toBe(false);
  });

  it('sets the flags once, at the first model seat, never for a bot', () => {
    const set: string[] = [];
    tuneForModelSeat({ spec: 'bot:chatter' }, (f) => set.push(f));
    expect(set).toEqual([]);
    tuneForModelSeat({ spec: 'openai:gpt-4o-mini' }, (f) => set.push(f));
    tuneForModelSeat({ spec: 'openai:gpt-4o' }, (f) => set.push(f));
    expect(set).toEqual([MODEL_SEAT_V8_FLAGS]);
  });
});
