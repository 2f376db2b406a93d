import { describe, expect, it } from 'vitest';
import { jsonErrorOffset } from './json-syntax.js';

describe('jsonErrorOffset', () => {
  it('is -1 for valid JSON and points at the first bad character otherwise', () => {
    for (const ok of ['[]', '{"a": [1, -2.5e3, "x\\n\\u00e9", true, false, null]}', ' "s" ']) expect(jsonErrorOffset(ok)).toBe(-1);
    expect(jsonErrorOffset('[1, }')).toBe(4);
    expect(jsonErrorOffset('{"a" 1}')).toBe(5);
    expect(jsonErrorOffset('[1, 2')).toBe(5);
    expect(jsonErrorOffset('{"a": tru}')).toBe(6);
    expect(jsonErrorOffset('[1] x')).toBe(4);
    expect(jsonErrorOffset('{"a": oops}')).toBe(6);
  });
});
