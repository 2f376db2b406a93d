import { describe, expect, it } from 'vitest';
import { firstNumber, normaliseAnswer, scoreByRule, yesNo } from './score.js';

describe('probe scoring by rule', () => {
  it('exact: case, quotes, a final period and spaces do not count; anything else does', () => {
    expect(scoreByRule('exact', ' "Juniper." ', 'Juniper')).toEqual({ score: 1 });
    expect(scoreByRule('exact', 'juniper', 'Juniper')).toEqual({ score: 1 });
    expect(scoreByRule('exact', 'I think Juniper', 'Juniper')).toEqual({ score: 0 });
    expect(normaliseAnswer('  Mary  Ann ')).toBe('mary ann');
  });
  it('numeric: absolute error against the first number; no number is not scored', () => {
    expect(scoreByRule('numeric', 'About $1,050.', 900)).toEqual({ score: 150 });
    expect(scoreByRule('numeric', '850', 900)).toEqual({ score: 50 });
    expect(scoreByRule('numeric', 'no idea', 900)).toMatchObject({ score: null });
    expect(firstNumber('-12.5 or so')).toBe(-12.5);
  });
  it('yes/no: the first word; neither is not scored', () => {
    expect(scoreByRule('yesno', 'Yes, it feels staged.', 'yes')).toEqual({ score: 1 });
    expect(scoreByRule('yesno', 'No.', 'yes')).toEqual({ score: 0 });
    expect(scoreByRule('yesno', 'Perhaps', 'yes')).toMatchObject({ score: null });
    expect(yesNo('nope')).toBeNull();
  });
  it('a free question is recorded, never scored', () => {
    expect(scoreByRule('none', 'anything', '')).toMatchObject({ score: null });
  });
});
