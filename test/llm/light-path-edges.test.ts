import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LlmError } from '../../llm/errors.js';
import { closeIdleConnections } from '../../llm/http1-pool.js';
import { resetStructuredMemory } from '../../llm/index.js';
import { createOpenAiClient } from '../../llm/openai-client.js';
import { defaultOptions } from '../../llm/options.js';
import type { ChatRequest } from '../../llm/types.js';

/**
 * Server behaviour the SDK (through fetch) copes with, met by the light path (llm/openai-http.ts over
 * llm/http1-pool.ts) on the same raw server: every call that succeeds through the SDK must succeed through
 * the light path, sending each request no more often than the SDK does.
 */

const OK_BODY = JSON.stringify({ id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } });
const REQ: ChatRequest = { messages: [{ role: 'user', content: 'Hello' }] };

/** What the server does with a request: its path, and whether the connection carried an earlier one. */
type Script = (socket: Socket, path: string, reused: boolean) => void;

let server: Server;
let base: string;
let script: Script;
const paths: string[] = [];
const sockets = new Set<Socket>();

const ok = (extra = '') => `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${OK_BODY.length}\r\n${extra}\r\n${OK_BODY}`;

function onSocket(socket: Socket): void {
  sockets.add(socket);
  socket.on('close', () => sockets.delete(socket));
  socket.on('error', () => {});
  let buf = '';
  let served = 0;
  socket.on('data', (d: Buffer) => {
    buf += d.toString('latin1');
    for (;;) {
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(buf.slice(0, end))?.[1] ?? 0);
      if (buf.length < end + 4 + length) return;
      const path = buf.slice(0, end).split(' ')[1]!;
      buf = buf.slice(end + 4 + length);
      paths.push(path);
      script(socket, path, served++ > 0);
    }
  });
}

// A server (an origin) per test: no connection either client kept from an earlier test is offered to it.
beforeEach(async () => {
  resetStructuredMemory();
  paths.length = 0;
  server = createServer(onSocket);
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterEach(async () => {
  closeIdleConnections();
  for (const s of sockets) s.destroy();
  await new Promise((r) => server.close(r));
});

/** `calls` calls one after the other through one client: each call's content or error code, and the paths the server saw. */
async function run(sdkOnly: boolean, calls: number) {
  paths.length = 0;
  const options = { ...defaultOptions('openai'), maxRetries: 0 };
  const client = createOpenAiClient({ model: 'm', apiKey: 'sk-test', baseURL: base, options, sampling: {}, sdkOnly });
  const outcomes: string[] = [];
  for (let i = 0; i < calls; i++) outcomes.push(await client.chat(REQ).then((r) => r.content, (e: LlmError) => `${e.code}: ${e.message}`));
  return { outcomes, paths: [...paths] };
}

describe('the light path where the SDK copes', () => {
  it('a server closing idle connections at the Keep-Alive timeout it names: fetch never reuses one, nor does the light path', async () => {
    // The worst case of the race: every request written on a connection that served one meets the close.
    script = (s, _path, reused) => (reused ? s.resetAndDestroy() : s.write(ok('keep-alive: timeout=1\r\n')));
    const sdk = await run(true, 3);
    expect(sdk.outcomes).toEqual(['hi', 'hi', 'hi']);
    expect(await run(false, 3)).toEqual(sdk);
  });

  it.each([307, 308])('a %d redirect is followed (the request re-sent with its body), as fetch follows it', async (status) => {
    script = (s, path) => {
      if (path.startsWith('/v1/')) s.write(`HTTP/1.1 ${status} Moved\r\nlocation: /v2/chat/completions\r\ncontent-length: 0\r\n\r\n`);
      else s.write(ok());
    };
    const sdk = await run(true, 2);
    expect(sdk.outcomes).toEqual(['hi', 'hi']);
    expect(sdk.paths).toEqual(['/v1/chat/completions', '/v2/chat/completions', '/v1/chat/completions', '/v2/chat/completions']);
    const light = await run(false, 2);
    expect(light.outcomes).toEqual(sdk.outcomes);
    // The light path's answer is a redirect: its request and the client's next ones are the SDK's.
    expect(light.paths).toEqual([sdk.paths[0], ...sdk.paths]);
  });

  it('a redirect without a location is the same HTTP error', async () => {
    script = (s) => s.write('HTTP/1.1 307 Moved\r\ncontent-length: 0\r\n\r\n');
    const sdk = await run(true, 1);
    expect(sdk.outcomes[0]).toMatch(/^llm\/http/);
    expect(await run(false, 1)).toEqual(sdk);
  });
});
