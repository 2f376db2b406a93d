import { readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { episode, mfScenario, writeRunDir, type MoveSpec } from '../../evaluator/testing/fixtures.js';
import { parley, tempDir, type CliProcess } from '../helpers/processes.js';

/**
 * Issue 19 contract 5 (annotation integrity), against a real `parley annotate`: answers need the
 * annotator's token and `application/json`; a second answer to a pair is refused; look-alike names are one
 * annotator; a UTF-8 character split across two TCP writes is stored intact; an oversized body gets a
 * 413; a pair key longer than 300 characters records answers.
 */
describe('parley annotate: annotation integrity', () => {
  const tmp = tempDir('annotate-integrity');
  const dirs: string[] = [];
  let proc: CliProcess;
  let base: string;
  let token: string;
  let key: string;
  const ann = join(tmp.path, 'ann.jsonl');

  beforeAll(async () => {
    const mf = mfScenario(`mf-${'x'.repeat(400)}`);
    const moves: MoveSpec[] = [['a', 'speak', 'hi']];
    dirs.push(await writeRunDir([mf], [episode({ scenario: mf, mode: 'script', runId: 'run-a', moves })]));
    dirs.push(await writeRunDir([mf], [episode({ scenario: mf, mode: 'agents', runId: 'run-b', moves })]));
    // Two spellings of one person (zero-width space, full-width letter, case): one token, one annotator.
    proc = parley(['annotate', dirs[0]!, dirs[1]!, '--port', '0', '--out', ann, '--annotators', 'Alice,ali\u200bce,ＡLICE ']);
    const [, url, t] = await proc.line(/^annotator "alice": (http:\/\/127\.0\.0\.1:\d+\/)#token=([0-9a-f]{32})$/);
    base = url!;
    token = t!;
    const next = await fetch(`${base}api/next`, { headers: { authorization: `Bearer ${token}` } });
    expect(next.status).toBe(200);
    const body = (await next.json()) as { annotator: string; item: { key: string } };
    expect(body.annotator).toBe('alice');
    key = body.item.key;
  });
  afterAll(async () => {
    proc?.kill();
    await proc?.exited;
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    tmp.remove();
  });

  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${base}api/answer`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers }, body });
  const lines = () => readFileSync(ann, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);

  it('gives look-alike names one token', () => {
    const secrets = JSON.parse(readFileSync(`${ann}.secrets.json`, 'utf8')) as { tokens: Record<string, string> };
    expect(Object.keys(secrets.tokens)).toEqual(['alice']);
  });

  it('refuses a request without a valid token, and a text/plain (no-cors) answer', async () => {
    expect((await fetch(`${base}api/next`)).status).toBe(401);
    expect((await post(JSON.stringify({ key, choice: 'A' }), { authorization: `Bearer ${'0'.repeat(32)}` })).status).toBe(401);
    expect((await post(JSON.stringify({ key, choice: 'A' }), { 'content-type': 'text/plain' })).status).toBe(415);
    expect(() => lines()).toThrow(); // nothing written yet: the file does not exist
  });

  it('answers 413 to an oversized body', async () => {
    const res = await post(JSON.stringify({ key, choice: 'A', reason: 'x'.repeat(17_000) }));
    expect(res.status).toBe(413);
  });

  it('a04 / k03: a DNS-rebinding Host reads neither the page nor the study, even with a token; another origin cannot answer', async () => {
    const { port } = new URL(base);
    const status = (path: string, headers: Record<string, string>, body?: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request(`${base}${path.slice(1)}`, { method: body === undefined ? 'GET' : 'POST', headers }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('error', reject);
        req.end(body);
      });
    const rebound = { host: `attacker.example:${port}` };
    const auth = { authorization: `Bearer ${token}` };
    const answer = JSON.stringify({ key, choice: 'A' });
    expect(await status('/', {})).toBe(200);
    expect(await status('/api/next', auth)).toBe(200);
    expect(await status('/', rebound)).toBe(403);
    expect(await status('/api/next', { ...rebound, ...auth })).toBe(403);
    expect(await status('/api/answer', { ...rebound, ...auth, 'content-type': 'application/json' }, answer)).toBe(403);
    expect(await status('/api/answer', { ...auth, origin: 'http://evil.example', 'content-type': 'application/json' }, answer)).toBe(403);
    expect(await status('/api/answer', { ...auth, origin: `http://127.0.0.1:${Number(port) + 1}`, 'content-type': 'application/json' }, answer)).toBe(403);
    expect(() => lines()).toThrow(); // nothing written: the file does not exist
  });

  it('stores a UTF-8 character split across two TCP writes intact, with a key over 300 characters, and refuses a second answer', async () => {
    expect(key.length).toBeGreaterThan(300);
    const body = Buffer.from(JSON.stringify({ key, choice: 'B', reason: 'café ☕' }), 'utf8');
    const split = body.indexOf(Buffer.from('☕')) + 1; // inside the 3-byte character
    const { port, hostname } = new URL(base);
    const status = await new Promise<string>((resolve, reject) => {
      const sock = connect(Number(port), hostname, () => {
        sock.write(`POST /api/answer HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nAuthorization: Bearer ${token}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`);
        sock.write(body.subarray(0, split), () => setImmediate(() => sock.write(body.subarray(split))));
      });
      let got = '';
      sock.on('data', (d) => (got += d.toString('utf8')));
      sock.on('end', () => resolve(got.split('\r\n')[0]!));
      sock.on('error', reject);
    });
    expect(status).toMatch(/^HTTP\/1\.1 200/);
    expect(lines()).toHaveLength(1);
    expect(lines()[0]).toMatchObject({ annotator: 'alice', key, reason: 'café ☕' });

    const again = await post(JSON.stringify({ key, choice: 'A' }));
    expect(again.status).toBe(409);
    expect(lines()).toHaveLength(1);
  });

  it('answers GET // (a path no URL can be made of) with 400, and keeps serving (issue 35)', async () => {
    const { port, hostname } = new URL(base);
    for (const path of ['//', '//x:y@', '///..']) {
      const status = await new Promise<string>((resolve, reject) => {
        const sock = connect(Number(port), hostname, () => sock.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`));
        let got = '';
        sock.on('data', (d) => (got += d.toString('utf8')));
        sock.on('end', () => resolve(got.split('\r\n')[0]!));
        sock.on('error', reject);
      });
      expect(status, path).toMatch(/^HTTP\/1\.1 (400|404)/);
    }
    expect((await fetch(`${base}api/next`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });
});
