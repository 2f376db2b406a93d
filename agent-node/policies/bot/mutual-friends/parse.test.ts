import { describe, expect, it } from 'vitest';
import { askedGroups, findMentions, leadingAnswer, splitClauses, type Term } from './parse.js';

const vocab: Term[] = [
  { attr: 'School', value: 'Auburn University' },
  { attr: 'School', value: 'Auburn University - Montgomery' },
  { attr: 'Company', value: 'Oakley, Inc.' },
  { attr: 'Major', value: 'Nursing' },
  { attr: 'Company', value: 'Meridian Rail' },
  { attr: 'Name', value: 'Ines' },
];

describe('MutualFriends text reading', () => {
  it('finds values case-insensitively on word boundaries, longest first', () => {
    const text = 'one went to auburn university - montgomery, another to Auburn University; nobody at Meridian Railways';
    const found = findMentions(text, vocab).map((m) => m.value);
    expect(found).toEqual(['Auburn University - Montgomery', 'Auburn University']);
    expect(findMentions('Minesweeper fans', vocab)).toEqual([]);
  });

  it('does not split clauses inside a value that contains punctuation', () => {
    const text = 'Two work at Oakley, Inc. and study Nursing. Do you know anyone there?';
    const clauses = splitClauses(text, findMentions(text, vocab));
    expect(clauses).toHaveLength(2);
    expect(clauses[0]!.mentions.map((m) => m.value)).toEqual(['Oakley, Inc.', 'Nursing']);
    expect(clauses[1]!.question).toBe(true);
  });

  it('tells denials from statements per clause, with "but" starting a new clause', () => {
    const text = "Hmm, I don't think any of my friends studied Nursing, but a couple work at Meridian Rail!";
    const clauses = splitClauses(text, findMentions(text, vocab));
    expect(clauses.map((c) => [c.negative, c.mentions.map((m) => m.value)])).toEqual([
      [true, ['Nursing']],
      [false, ['Meridian Rail']],
    ]);
  });

  it('ignores negation words inside values and reads leading yes/no', () => {
    const text = 'Yes, one works at Meridian Rail.';
    expect(splitClauses(text, findMentions(text, vocab))[0]!.negative).toBe(false);
    expect(leadingAnswer('Yes! Two of them.')).toBe('yes');
    expect(leadingAnswer("Sorry, I don't know anyone like that.")).toBe('no');
    expect(leadingAnswer('Maybe.')).toBeNull();
  });

  it('groups the values a question asks about, including a statement the question points back at', () => {
    const q1 = 'Did any of your friends study Nursing and work at Meridian Rail?';
    expect(askedGroups(splitClauses(q1, findMentions(q1, vocab))).map((g) => g.map((m) => m.value))).toEqual([['Nursing', 'Meridian Rail']]);
    const q2 = 'Several of my friends studied Nursing. Do you know anyone like that?';
    expect(askedGroups(splitClauses(q2, findMentions(q2, vocab))).map((g) => g.map((m) => m.value))).toEqual([['Nursing']]);
    const q3 = 'Several of my friends studied Nursing. Do any of your friends work at Globex?';
    expect(askedGroups(splitClauses(q3, findMentions(q3, vocab)))).toEqual([]);
  });
});
