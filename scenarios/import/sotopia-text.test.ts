import { describe, expect, it } from 'vitest';
import { absent, splitGoal, splitScenario, unescapeQuotes } from './sotopia-text.js';

describe('SOTOPIA text conventions', () => {
  it('splits hints out of a goal, including nested ones, in opening order', () => {
    const r = splitGoal('Share the blanket (<extra_info>You are cold <strategy_hint>Hint: stress sharing.</strategy_hint></extra_info>)');
    expect(r.goal).toBe('Share the blanket');
    expect(r.hints).toEqual([
      { kind: 'extra_info', text: 'You are cold', paren: 'open' },
      { kind: 'strategy_hint', text: 'Hint: stress sharing.', paren: 'close' },
    ]);
    expect(splitGoal('Ask (<clarification_hint>Do not tell</clarification_hint>) politely')).toEqual({
      goal: 'Ask politely', hints: [{ kind: 'clarification_hint', text: 'Do not tell', parenthesized: true }],
    });
    // The pair kept around a hint that fills it (issue 42: SOTOPIA's renderer kept the parentheses as text).
    // A pair around a hint and the hints nested in it (24 SOTOPIA goals): the outer opens it, the last nested one closes it.
    expect(splitGoal('A (<extra_info>x <strategy_hint>y</strategy_hint></extra_info>) tail').hints).toEqual([
      { kind: 'extra_info', text: 'x', paren: 'open' },
      { kind: 'strategy_hint', text: 'y', paren: 'close' },
    ]);
    // Not when the outer's own text follows a nested hint, the pair holds more, or a hint is never closed.
    for (const g of ['A (<extra_info>x <strategy_hint>y</strategy_hint> z</extra_info>) t', 'A (<extra_info>x <strategy_hint>y</strategy_hint></extra_info> more) t', 'A (<extra_info>x <strategy_hint>y']) {
      expect(splitGoal(g).hints.every((h) => !h.parenthesized && !h.paren)).toBe(true);
    }
    expect(splitGoal('A <extra_info>x</extra_info> (tail)').hints[0]!.parenthesized).toBeUndefined();
    expect(splitGoal('Plain goal')).toEqual({ goal: 'Plain goal', hints: [] });
    expect(splitGoal('Unclosed <extra_info>secret plan').hints).toEqual([{ kind: 'extra_info', text: 'secret plan' }]);
  });

  it('moves environment-only paragraphs to judge-only text', () => {
    expect(splitScenario('2 strangers meet. <p viewer="environment">They have 1 common friends: Al.</p>')).toEqual({
      narrative: '2 strangers meet.', judgeOnly: 'They have 1 common friends: Al.',
    });
    expect(splitScenario('Nothing hidden.')).toEqual({ narrative: 'Nothing hidden.', judgeOnly: '' });
  });

  it('undoes escaped quotes and reads nan/none as absent', () => {
    expect(unescapeQuotes("Here\\'s a \\\"deal\\\"")).toBe('Here\'s a "deal"');
    expect(absent('nan')).toBeUndefined();
    expect(absent(' none ')).toBeUndefined();
    expect(absent('A story')).toBe('A story');
  });
});
