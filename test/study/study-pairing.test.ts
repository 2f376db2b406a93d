import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { within } from '../helpers/processes.js';
import { StudyParticipant } from '../helpers/study-participant.js';
import { studyServerSuite } from '../helpers/study-server.js';

/**
 * Issue 41, Contract 1 and 2, through the HTTP and socket.io API the pages use (no browser): a seat-play
 * study with waitSeconds 5; two participants 1 s apart are paired with each other, a third alone gets the
 * bot after 5 s (recorded `ai-fallback`), all three see the completion code after the survey. A refusal
 * leaves only a count; the same id resumes with its token and is refused a second session without it.
 */
describe('parley study: pairing, AI fallback, consent, resume', () => {
  const study = studyServerSuite('study', { waitSeconds: '5' });
  const { out } = study;

  it('pairs two arrivals 1 s apart, gives the third the bot after 5 s, and all three get the code', async () => {
    const { base, server } = study;
    const a = new StudyParticipant(base, 'A0000000000000000000000a');
    const b = new StudyParticipant(base, 'B0000000000000000000000b');
    const c = new StudyParticipant(base, 'C0000000000000000000000c');
    expect((await a.consent()).status).toBe(200);
    // The second arrives 1 s after the first: the first's own countdown says when (long polls, no sleep).
    await a.until((v) => v.state !== 'waiting' || (v.waiting?.secondsLeft ?? 5) <= 4);
    const first = a.finish('person', { say: 'Hello, do we share a friend?' });
    const second = b.complete('person');
    const [va, vb] = await within(Promise.all([first, second]), 60_000, 'the pair completes', [server]);
    const t0 = Date.now();
    const third = await within(c.complete('AI'), 60_000, 'the third completes', [server]);
    const waited = Date.now() - t0;
    for (const v of [va, vb, third]) {
      expect(v.state).toBe('done');
      expect(v.completion).toEqual({ code: 'C1A2B3' });
    }
    expect(waited).toBeGreaterThanOrEqual(4500);
    const people = JSON.parse(readFileSync(join(out, 'study-participants.json'), 'utf8')) as Array<{ pid: string; episodes: Array<{ episodeId: string; partner: string }> }>;
    const byPid = new Map(people.map((p) => [p.pid, p]));
    expect(byPid.get(a.pid)!.episodes[0]!.partner).toBe('person');
    expect(byPid.get(b.pid)!.episodes[0]!.episodeId).toBe(byPid.get(a.pid)!.episodes[0]!.episodeId);
    expect(byPid.get(c.pid)!.episodes[0]!.partner).toBe('ai-fallback');
    const rows = readFileSync(join(out, 'study-episodes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { partner: string; people: unknown[]; partnerPolicy?: string });
    expect(rows.map((r) => r.partner).sort()).toEqual(['ai-fallback', 'person']);
    expect(rows.find((r) => r.partner === 'ai-fallback')!.partnerPolicy).toBe('bot');
    expect(readFileSync(join(out, 'study-participants.csv'), 'utf8')).toContain('ai-fallback');
    const records = readFileSync(join(out, 'episodes.jsonl'), 'utf8').trim().split('\n');
    expect(records).toHaveLength(2);
  });

  it('keeps nothing of a refusal but the count; resumes a returning id; refuses a second session', async () => {
    const { base } = study;
    const no = new StudyParticipant(base, 'NOPE00000000000000000000');
    expect((await no.consent(false)).status).toBe(200);
    expect(JSON.parse(readFileSync(join(out, 'study-refusals.json'), 'utf8'))).toEqual({ refusals: 1 });
    expect(readFileSync(join(out, 'study-participants.json'), 'utf8')).not.toContain(no.pid);
    for (const f of ['study-participants.csv', 'study-episodes.csv', 'study-episodes.jsonl', 'episodes.jsonl']) {
      if (existsSync(join(out, f))) expect(readFileSync(join(out, f), 'utf8')).not.toContain(no.pid);
    }
    const r = new StudyParticipant(base, 'R0000000000000000000000r');
    expect((await r.consent()).status).toBe(200);
    const waiting = await r.state();
    expect(waiting.state).toBe('waiting');
    // The same id comes back with its token (the page keeps it): the same session.
    const back = new StudyParticipant(base, r.pid);
    back.token = r.token;
    expect((await back.state()).state).toBe('waiting');
    // The same id without the token, and the same id once done: no second session.
    const again = new StudyParticipant(base, r.pid);
    expect((await again.consent()).status).toBe(409);
    const done = new StudyParticipant(base, 'A0000000000000000000000a');
    expect((await done.consent()).status).toBe(409);
  });
});
