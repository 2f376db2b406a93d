import { describe, expect, it } from 'vitest';
import { protocolText } from './card.js';

describe('the simulation card names the protocol and every switch from the paper', () => {
  it('paper with its defaults', () => {
    const text = protocolText({ name: 'paper', backgrounds: 'code', scriptFormat: 'text', stopRule: 'code', leakJudgeOnly: [], showRelationshipStory: false, onUnparsable: 'none', onProviderError: 'none' });
    expect(text).toBe("paper — SOTOPIA's prompts; backgrounds code, script format text, stop rules as the code runs them; judge-only text to the judge only; relationship story to the judge only; " +
      'a reply unreadable after one reformat request becomes a counted `none` turn (an unreadable script: an empty one) and the episode goes on (`--on-unparsable none`); ' +
      "an LLM call that failed after its retries becomes a counted `none` turn (a script writer's: an empty script) and the episode goes on (`--on-provider-error none`, as SOTOPIA's code)");
  });

  it('parley, and the leaks a run opted into', () => {
    const text = protocolText({ name: 'parley', leakJudgeOnly: ['script', 'mindreaders'], showRelationshipStory: true });
    expect(text).toContain('parley — explicit task moves');
    expect(text).toContain("judge-only text sent to script, mindreaders (as SOTOPIA's code did)");
    expect(text).toContain('relationship story sent to the generators');
  });

  it('names --on-unparsable fail, and reads a run.json from before the switch as fail (what those runs did)', () => {
    expect(protocolText({ name: 'paper', onUnparsable: 'fail' })).toContain('fails the episode (`--on-unparsable fail`)');
    expect(protocolText({ name: 'paper', backgrounds: 'code' })).toContain('fails the episode (`--on-unparsable fail`)');
    expect(protocolText({ name: 'parley', onUnparsable: 'none' })).toContain('becomes a counted `none` turn');
  });

  it('a run directory from before the setting has none', () => {
    expect(protocolText(undefined)).toBeNull();
  });
});
