import { createServer } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { evalProgressLine } from '../../cli/commands/eval.js';
import { checkJudgeEndpoint, judgeBaseUrl } from '../../evaluator/judge-preflight.js';
import { getStatus } from '../../llm/get-status.js';

describe('judge endpoint preflight', () => {
  it('names the URL when nothing listens there', async () => {
    // A port that was free a moment ago: nothing listens there now.
    const probe = createServer().listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const msg = await checkJudgeEndpoint('openai:gpt-4', { baseURL: `http://127.0.0.1:${port}/v1`, env: {} });
    expect(msg).toBe(`judge openai:gpt-4: cannot reach http://127.0.0.1:${port}/v1 (ECONNREFUSED); check --base-url or OPENAI_BASE_URL`);
  });

  it('passes any answering server, and reports a refused key', async () => {
    let status = 404;
    const server = createServer((_req, res) => res.writeHead(status).end()).listen(0, '127.0.0.1');
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    try {
      expect(await checkJudgeEndpoint('openai:gpt-4', { baseURL: base, env: {} })).toBeNull();
      status = 401;
      expect(await checkJudgeEndpoint('openai:gpt-4', { baseURL: base, env: {} })).toMatch(/refused the key \(HTTP 401\)/);
    } finally {
      server.close();
    }
  });

  it('resolves the base URL from the flag, the environment, or the default', () => {
    expect(judgeBaseUrl('openai:gpt-4', 'http://x/v1', {})).toBe('http://x/v1');
    expect(judgeBaseUrl('mistral:m', undefined, { MISTRAL_BASE_URL: 'http://m' })).toBe('http://m');
    expect(judgeBaseUrl('openai:gpt-4', undefined, {})).toBe('https://api.openai.com/v1');
    expect(judgeBaseUrl('replay:runs/x', undefined, {})).toBeNull();
  });
});

describe('the preflight GET over node:http, fetch where fetch would act otherwise (llm/get-status.ts)', () => {
  async function serve(handler: Parameters<typeof createServer>[1]) {
    const server = createServer(handler).listen(0, '127.0.0.1');
    await once(server, 'listening');
    return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  }

  it('reads the status without fetch (undici) on a plain http URL', async () => {
    const { server, base } = await serve((_req, res) => res.writeHead(404).end('nope'));
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    try {
      expect(await getStatus(`${base}/v1/models`, { authorization: 'Bearer k' }, 5_000)).toEqual({ status: 404 });
      expect(fetchSpy).not.toHaveBeenCalled();
    } finally {
      fetchSpy.mockRestore();
      server.close();
    }
  });

  it('follows a redirect as fetch does: the status is the last answer\'s', async () => {
    const { server, base } = await serve((req, res) => (req.url === '/v1/models' ? res.writeHead(302, { location: '/v2/models' }).end() : res.writeHead(401).end()));
    try {
      expect(await getStatus(`${base}/v1/models`, {}, 5_000)).toEqual({ status: 401 });
    } finally {
      server.close();
    }
  });

  it('gives the reasons fetch gives: a blocked port, a refused connection, a timeout', async () => {
    expect(await getStatus('http://127.0.0.1:6000/v1/models', {}, 5_000)).toEqual({ why: 'bad port' });
    const probe = createServer().listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    expect(await getStatus(`http://127.0.0.1:${port}/v1/models`, {}, 5_000)).toEqual({ why: 'ECONNREFUSED' });
    const { server, base } = await serve(() => {});
    try {
      const fetched = await fetch(`${base}/v1/models`, { signal: AbortSignal.timeout(100) }).catch((err: Error) => err.message);
      expect(await getStatus(`${base}/v1/models`, {}, 100)).toEqual({ why: fetched });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('eval progress line', () => {
  it('shows tokens, cost and an ETA', () => {
    const line = evalProgressLine({ done: 2, total: 6, scoredSeats: 4, errorSeats: 0, lastEpisode: 'e', usage: { prompt: 1500, completion: 500 } }, 10_000, 0.0123);
    expect(line).toBe('judged 2/6 episodes · seats scored 4 · evaluation errors 0 · 2.0k tokens · ~$0.0123 · ETA 20s');
  });
});
