import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeWithData, sotopiaData } from './helpers/reference-data.js';
import { parleyOutput } from './helpers/parley-output.js';

/**
 * `parley scenarios fetch sotopia` as a user runs it (a child process through bin/parley.js) against a
 * plain HTTP server serving a temp copy of ../shared/data/sotopia, with the cache in a temp directory.
 */
// Without SOTOPIA's real files (a fresh clone) the tests that need them skip, saying why.
const data = sotopiaData();
const SOTOPIA = data.dir;

/** `parley <args>`: its exit code and what it printed (`out`, `err`). */
async function parley(args: string[], env: Record<string, string> = {}) {
  const { code, stdout: out, stderr: err } = await parleyOutput(args, env);
  return { code, out, err };
}

/** A static file server over `dir` on 127.0.0.1:0 that counts the requests it served. */
async function staticServer(dir: string): Promise<{ server: Server; url: string; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer(async (req, res) => {
    const name = path.basename(decodeURIComponent((req.url ?? '/').split('?')[0]!));
    hits.push(name);
    try {
      const body = await readFile(path.join(dir, name));
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, hits };
}

let tmp: string;

describeWithData(data, 'parley scenarios fetch sotopia', () => {
  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'parley-fetch-'));
    await cp(SOTOPIA, path.join(tmp, 'served'), { recursive: true });
  });
  afterAll(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  it('downloads, verifies and imports 450 instances, then reuses the cache', async () => {
    const { server, url, hits } = await staticServer(path.join(tmp, 'served'));
    const env = { PARLEY_CACHE: path.join(tmp, 'cache') };
    try {
      const S = path.join(tmp, 'S.jsonl');
      const r = await parley(['scenarios', 'fetch', 'sotopia', '--from', url, '--out', S], env);
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      expect(r.out).toContain(`from ${url}environment_profiles.jsonl`);
      expect(r.out).toContain('verified 90 scenarios, 40 characters, 120 relationships, 450 character pairs');
      expect((await readFile(S, 'utf8')).trim().split('\n')).toHaveLength(450);
      expect(hits).toHaveLength(5);

      const again = await parley(['scenarios', 'fetch', 'sotopia', '--from', url, '--out', path.join(tmp, 'S2.jsonl')], env);
      expect(again.code).toBe(0);
      expect(again.out).toContain('using the cached download');
      expect(hits).toHaveLength(5);
    } finally {
      server.close();
    }
  });

  it('with the server down, fails in one line naming the URL and writes nothing', async () => {
    const { server, url } = await staticServer(path.join(tmp, 'served'));
    server.close();
    await once(server, 'close');
    const cache = path.join(tmp, 'cache-down');
    const S = path.join(tmp, 'down.jsonl');
    const r = await parley(['scenarios', 'fetch', 'sotopia', '--from', url, '--out', S], { PARLEY_CACHE: cache });
    expect(r.code).toBe(1);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toContain(`${url}environment_profiles.jsonl`);
    expect(existsSync(S)).toBe(false);
    expect(existsSync(cache) ? await readdir(path.join(cache, 'sotopia')) : []).toEqual([]);
  });

  it('refuses a data set that does not hold the published counts', async () => {
    const partial = path.join(tmp, 'partial');
    await cp(path.join(tmp, 'served'), partial, { recursive: true });
    const combos = (await readFile(path.join(partial, 'env_agent_combo_storages.jsonl'), 'utf8')).trim().split('\n');
    await (await import('node:fs/promises')).writeFile(path.join(partial, 'env_agent_combo_storages.jsonl'), `${combos.slice(0, 449).join('\n')}\n`);
    const S = path.join(tmp, 'partial.jsonl');
    const r = await parley(['scenarios', 'fetch', 'sotopia', '--from', partial, '--out', S], { PARLEY_CACHE: path.join(tmp, 'cache-p') });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/pairs 449 \(expected 450\)/);
    expect(existsSync(S)).toBe(false);
  });
});
