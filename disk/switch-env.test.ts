import { describe, expect, it } from 'vitest';
import { switchEnv } from './switch-env.js';

describe('switchEnv', () => {
  it('reads 0 and 1, leaves unset or empty to the default, and refuses anything else', () => {
    expect(switchEnv('X', {})).toBeUndefined();
    expect(switchEnv('X', { X: ' ' })).toBeUndefined();
    expect(switchEnv('X', { X: '0' })).toBe(false);
    expect(switchEnv('X', { X: '1' })).toBe(true);
    expect(() => switchEnv('X', { X: 'off' })).toThrow('X: expected 0 (off) or 1 (on), got "off"');
  });
});
