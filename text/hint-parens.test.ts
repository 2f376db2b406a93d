import { describe, expect, it } from 'vitest';
import { hintInParens } from './hint-parens.js';

describe('hintInParens (SOTOPIA kept a hint\'s source parentheses as text)', () => {
  it('wraps a parenthesized hint, opens or closes a nested pair, trims the text', () => {
    expect(hintInParens({ text: ' A ', parenthesized: true })).toBe('(A)');
    expect(hintInParens({ text: 'A ', paren: 'open' })).toBe('(A');
    expect(hintInParens({ text: ' B', paren: 'close' })).toBe('B)');
  });

  it('a hint with no parentheses, or no text, is `bare`: by default its trimmed text', () => {
    expect(hintInParens({ text: ' plain ' })).toBe('plain');
    expect(hintInParens({ text: ' plain ' }, ' plain ')).toBe(' plain ');
    expect(hintInParens({ text: '  ', parenthesized: true })).toBe('');
    expect(hintInParens({ text: '  ', parenthesized: true }, '  ')).toBe('  ');
  });
});
