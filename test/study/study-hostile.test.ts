import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { within } from '../helpers/processes.js';
import { StudyParticipant } from '../helpers/study-participant.js';
import { studyServerSuite } from '../helpers/study-server.js';

/** A raw POST with a body of `bytes` bytes (no fetch: a test of what the server reads and refuses). */
function rawPost(base: string, path: string, bytes: number, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const url = new URL(path, base);
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    // The server may answer 413 and close before the whole body is written: that is the point.
    req.on('error', () => resolve(-1));
    req.end(Buffer.alloc(bytes, 0x7b));
  });
}

/**
 * Issue 41, Contract 4: 50 simulated participants against one study server, 10 of them hostile (forged
 * ids, another participant's id and guessed tokens, oversized bodies, cross-origin and simple-request
 * posts, a request flood). No server process ends, no participant reads another's data, every honest
 * participant completes. Behind `--trust-proxy`, each participant has its own X-Forwarded-For address,
 * so the flood is limited on the flooder's address only.
 */
/** The study's request budget per address and minute (study file `requestsPerMinute`). */
const BUDGET = 100;

describe('parley study under 50 participants, 10 hostile', () => {
  // A budget of 100 requests a minute: an honest participant here makes ~4, a hostile one ~12 besides the flood.
  const study = studyServerSuite('study-hostile', { waitSeconds: '3', requestsPerMinute: String(BUDGET) }, ['--trust-proxy']);
  const { out } = study;

  it('completes every honest participant while the hostile ones get nothing of anyone', async () => {
    const { base, server, organiserKey: organiser } = study;
    const honest = Array.from({ length: 40 }, (_, i) => new StudyParticipant(base, `H${String(i).padStart(23, '0')}`, { 'x-forwarded-for': `10.0.0.${i + 1}` }));
    const hostileResults: Array<{ what: string; status: number; body: string }> = [];
    const note = async (what: string, res: Response | number) => {
      if (typeof res === 'number') return void hostileResults.push({ what, status: res, body: '' });
      hostileResults.push({ what, status: res.status, body: await res.text() });
    };
    const hostile = Array.from({ length: 10 }, (_, i) => new StudyParticipant(base, `X${String(i).padStart(23, '0')}`, { 'x-forwarded-for': `10.66.0.${i + 1}` }));
    const attacks = hostile.map(async (h, i) => {
      const victim = honest[i]!;
      // Forged ids: a path, a huge one, another participant's (once they consented).
      await note('pid path', await h.post('/api/study/consent', { pid: '../../etc/passwd', agree: true }));
      await note('pid huge', await h.post('/api/study/consent', { pid: 'A'.repeat(5000), agree: true }));
      await note('pid proto', await h.post('/api/study/consent', { pid: '__proto__', agree: true, extra: 1 }));
      await victim.consented;
      await note('victim pid', await h.post('/api/study/consent', { pid: victim.pid, agree: true }));
      // Guessed and borrowed tokens: a random one, the organiser's path with no key.
      await note('guessed token', await h.get('/api/study/state', { authorization: `Bearer ${'0'.repeat(32)}` }));
      await note('organiser without key', await h.get('/api/organiser'));
      await note('organiser with a guess', await h.get('/api/organiser', { authorization: `Bearer ${'f'.repeat(32)}` }));
      // Oversized bodies (with and without a declared length), cross-origin and simple-request posts.
      await note('1 MB consent', await rawPost(base, '/api/study/consent', 1 << 20, { 'x-forwarded-for': `10.66.0.${i + 1}` }));
      await note('1 MB chunked survey', await rawPost(base, '/api/study/survey', 1 << 20, { 'transfer-encoding': 'chunked', 'x-forwarded-for': `10.66.0.${i + 1}` }));
      await note('cross-origin', await h.post('/api/study/consent', { pid: `${h.pid}`, agree: true }, { origin: 'http://evil.example' }));
      await note('text/plain', await h.post('/api/study/consent', { pid: h.pid, agree: true }, { 'content-type': 'text/plain' }));
      await note('bad json', await fetch(`${base}/api/study/consent`, { method: 'POST', headers: { 'content-type': 'application/json', ...h.headers }, body: '{"pid":' }));
      if (i === 0) {
        // A flood from one address: refused past its budget, nobody else's. The budget is per fixed minute
        // (request-limiter.ts), and a flood that straddles a minute's end is split between two windows: more
        // than twice the budget, so one of them is over it wherever the boundary falls. (1,300 against the
        // default 1,200 got no 429 when split, the likelier the slower the machine: 1 run of 4 at load ~11.)
        const codes: number[] = [];
        for (let n = 0; n < Math.ceil((2 * BUDGET + 1) / 20); n++) codes.push(...(await Promise.all(Array.from({ length: 20 }, () => h.get('/api/study/info').then((r) => r.status)))));
        hostileResults.push({ what: 'flood', status: codes.includes(429) ? 429 : 200, body: '' });
      }
    });
    const honestRuns = honest.map((p, i) => p.complete(i % 2 ? 'person' : 'AI', { say: `hello from ${p.pid}` }));
    const [views] = await within(Promise.all([Promise.all(honestRuns), Promise.all(attacks)]), 150_000, 'honest participants complete', [server]);

    for (const v of views) expect(v).toMatchObject({ state: 'done', completion: { code: 'C1A2B3' } });
    // Every hostile request was refused, and no answer carried anyone's id, token or seat.
    const secrets = honest.flatMap((p) => [p.pid, p.token, ...p.views.map((v) => v.seat).filter((s): s is string => !!s)]);
    for (const r of hostileResults) {
      // An oversized body may also be cut off: the server answers 413 and closes while the client is still
      // writing, and on a busy machine the reset can reach the client before the answer does (-1). Either way
      // nothing was accepted; that the server lives on is checked by every honest participant completing.
      const cutOff = r.what.startsWith('1 MB') && r.status === -1;
      if (r.what !== 'flood' && !cutOff) expect(r.status, r.what).toBeGreaterThanOrEqual(400);
      for (const s of secrets) expect(r.body, r.what).not.toContain(s);
    }
    const by = (what: string) => hostileResults.filter((r) => r.what === what).map((r) => r.status);
    expect(new Set(by('victim pid'))).toEqual(new Set([409]));
    expect(new Set(by('guessed token'))).toEqual(new Set([401]));
    expect(new Set(by('cross-origin'))).toEqual(new Set([403]));
    expect(new Set(by('text/plain'))).toEqual(new Set([415]));
    expect(by('1 MB consent').every((s) => s === 413 || s === -1)).toBe(true);
    expect(by('flood')).toEqual([429]);
    // Each honest participant only ever saw their own seat: no seat token was handed to two of them.
    const seats = honest.map((p) => p.views.find((v) => v.seat)?.seat);
    expect(new Set(seats).size).toBe(40);
    // Nothing of a hostile id was kept (none consented), and the server and its agent processes are alive.
    expect(readFileSync(join(out, 'study-participants.json'), 'utf8')).not.toMatch(/X0{10}/);
    expect(server.child.exitCode).toBeNull();
    const stats = (await (await fetch(`${base}/api/organiser`, { headers: { authorization: `Bearer ${organiser}` } })).json()) as { participants: { done: number } };
    expect(stats.participants.done).toBe(40);
  }, 200_000);
});
