import { describe, expect, it } from 'vitest';
import { protocolText } from './card.js';

describe('the simulation card names the protocol and every switch from the paper', () => {
  it('paper with its defaults', () => {
    const text = protocolText({ name: 'paper', backgrounds: 'code', scriptFormat: 'text', stopRule: 'code', leakJudgeOnly: [], showRelationshipStory: false });
    expect(text).toBe("paper — SOTOPIA's prompts; backgrounds code, script format text, stop rules as the code runs them; judge-only text to the judge only; relationship story to the judge only");
  });

  it('parley, and the leaks a run opted into', () => {
    const text = protocolText({ name: 'parley', leakJudgeOnly: ['script', 'mindreaders'], showRelationshipStory: true });
    expect(text).toContain('parley — explicit task moves');
    expect(text).toContain("judge-only text sent to script, mindreaders (as SOTOPIA's code did)");
    expect(text).toContain('relationship story sent to the generators');
  });

  it('a run directory from before the setting has none', () => {
    expect(protocolText(undefined)).toBeNull();
  });
});
