import { describe, expect, it } from 'vitest';
import { isEpisodeFile, jobIdOf } from './jobs.js';
import { parseQueueUrl, redactUrl } from './redis-url.js';

describe('queue job files and URLs', () => {
  const ep = 'builtin-mf-01.agents.r0.3159287cb9b4';
  it('accepts only ledgers and cassettes of the episode itself', () => {
    expect(isEpisodeFile(`ledgers/${ep}/agent1.jsonl`, ep)).toBe(true);
    expect(isEpisodeFile(`cassettes/${ep}/script.jsonl`, ep)).toBe(true);
    expect(isEpisodeFile(`ledgers/other/agent1.jsonl`, ep)).toBe(false);
    expect(isEpisodeFile(`ledgers/${ep}/../../run.json`, ep)).toBe(false);
    expect(isEpisodeFile(`ledgers/${ep}/..`, ep)).toBe(false);
    expect(isEpisodeFile(`episodes.jsonl`, ep)).toBe(false);
    expect(isEpisodeFile(`ledgers/${ep}/.hidden.jsonl`, ep)).toBe(false);
  });
  it('job ids carry the run key and contain no colon (BullMQ refuses those)', () => {
    expect(jobIdOf('r1-abc', ep)).toBe(`r1-abc.${ep}`);
    expect(jobIdOf('r1-abc', ep)).not.toContain(':');
  });
  it('checks queue URLs and never prints the password', () => {
    expect(parseQueueUrl('redis://127.0.0.1:6379')).toMatchObject({ ok: true, shown: 'redis://127.0.0.1:6379' });
    expect(parseQueueUrl('rediss://u:pw@h.example:6380/2')).toMatchObject({ ok: true, shown: 'rediss://u:***@h.example:6380/2' });
    expect(parseQueueUrl('http://127.0.0.1:6379')).toMatchObject({ ok: false });
    expect(parseQueueUrl('redis://h:1/x')).toMatchObject({ ok: false });
    expect(parseQueueUrl('nonsense')).toMatchObject({ ok: false });
    expect(redactUrl('redis://:secret@h:1')).not.toContain('secret');
  });
});
