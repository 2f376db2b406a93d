import { createServer, Socket, type AddressInfo, type Server } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { closeIdleConnections, exchange, Http1ConnectionError, idleLimitMs } from '../../llm/http1-pool.js';

/**
 * The light path's connections (llm/http1-pool.ts) against a raw TCP server that answers each request as
 * the test scripts it: split answers, chunked bodies, bodies cut short or too long, garbage, silence,
 * closes. After every failure the next request must be answered on a fresh connection.
 */

type Script = (socket: Socket, request: string) => void;

let server: Server;
let url: URL;
let script: Script;
let connections = 0;
const sockets = new Set<Socket>();
const closed: Socket[] = [];

const REQUEST = Buffer.from('POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\nconnection: keep-alive\r\ncontent-length: 2\r\n\r\n{}');
const answer = (body: string, extra = '') => `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;
const answerOk: Script = (s) => s.write(answer('{"ok":true}'));
const abortError = () => Object.assign(new Error('request aborted'), { name: 'AbortError' });

function onSocket(socket: Socket): void {
  connections += 1;
  sockets.add(socket);
  socket.on('error', () => {});
  socket.on('close', () => {
    sockets.delete(socket);
    closed.push(socket);
  });
  let buf = '';
  socket.on('data', (d: Buffer) => {
    buf += d.toString('latin1');
    const end = buf.indexOf('\r\n\r\n');
    if (end < 0 || buf.length < end + 6) return;
    const request = buf.slice(0, end + 6);
    buf = buf.slice(end + 6);
    script(socket, request);
  });
}

const post = (signal = new AbortController().signal) => exchange(url, REQUEST, signal, abortError);
/** Waits until `check` holds (the server's side of a close arrives asynchronously), for at most 5 s. */
async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setImmediate(r));
  }
}

/**
 * The pool's end of a connection the server holds: the pool keeps its sockets to itself, so the process's
 * open handles are searched for the socket whose ports mirror the server's.
 */
function poolSocketOf(serverSide: Socket): Socket {
  const handles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
  const found = handles.find((h): h is Socket => h instanceof Socket && h !== serverSide && h.localPort === serverSide.remotePort && h.remotePort === serverSide.localPort);
  if (!found) throw new Error('the pool end of the connection is not open');
  return found;
}

beforeAll(async () => {
  server = createServer(onSocket);
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`);
});
afterAll(async () => {
  closeIdleConnections();
  for (const s of sockets) s.destroy();
  await new Promise((r) => server.close(r));
});
beforeEach(() => {
  closeIdleConnections();
  connections = 0;
  script = answerOk;
});

describe('kept-alive HTTP/1.1 connections (llm/http1-pool.ts)', () => {
  it('sends the request as given and keeps one connection for requests one after the other', async () => {
    const seen: string[] = [];
    script = (s, request) => {
      seen.push(request);
      answerOk(s, request);
    };
    for (let i = 0; i < 3; i++) expect((await post()).body.toString()).toBe('{"ok":true}');
    expect(seen).toEqual(Array(3).fill(REQUEST.toString('latin1')));
    expect(connections).toBe(1);
  });

  it('opens one connection per request in flight, then reuses them', async () => {
    const held: Array<() => void> = [];
    script = (s, r) => held.push(() => answerOk(s, r));
    const three = Promise.all([post(), post(), post()]);
    await until(() => held.length === 3);
    for (const release of held.splice(0)) release();
    await three;
    expect(connections).toBe(3);
    script = answerOk;
    await Promise.all([post(), post(), post()]);
    expect(connections).toBe(3);
  });

  it('two answers read in turns on two connections keep their own bytes (reads share one buffer)', async () => {
    const held: Socket[] = [];
    script = (s) => held.push(s);
    const two = Promise.all([post(), post()]);
    await until(() => held.length === 2);
    const [a, b] = held as [Socket, Socket];
    const bodyA = `{"who":"${'a'.repeat(3000)}"}`;
    const bodyB = `{"who":"${'b'.repeat(3000)}"}`;
    const textA = answer(bodyA);
    const textB = answer(bodyB);
    // Each answer in two reads, interleaved: the head and part of A's body, all but the end of B, then both ends.
    const cutA = textA.length - 1000;
    const cutB = textB.length - 10;
    // Each piece is written, then waited for until the pool's end of that connection has read it, so the
    // reads alternate between the connections in this order.
    const written = async (s: Socket, t: string, readByThen: number) => {
      s.write(t);
      const client = poolSocketOf(s);
      await until(() => client.bytesRead >= readByThen);
    };
    await written(a, textA.slice(0, cutA), cutA);
    await written(b, textB.slice(0, cutB), cutB);
    await written(a, textA.slice(cutA), textA.length);
    await written(b, textB.slice(cutB), textB.length);
    const [gotA, gotB] = await two;
    expect(gotA.body.toString()).toBe(bodyA);
    expect(gotB.body.toString()).toBe(bodyB);
  });

  it('reads an answer written a byte at a time, and a chunked one', async () => {
    script = (s) => {
      const text = answer('{"split":"é"}');
      const bytes = Buffer.from(text);
      let i = 0;
      const next = () => {
        if (i < bytes.length) s.write(bytes.subarray(i, ++i), () => setImmediate(next));
      };
      next();
    };
    const split = await post();
    expect(split.body.toString('utf8')).toBe('{"split":"é"}');
    script = (s) => s.write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n4\r\n{"a"\r\n3\r\n:1}\r\n0\r\n\r\n');
    expect((await post()).body.toString()).toBe('{"a":1}');
    expect(connections).toBe(1);
  });

  it('reads a body without a length to the close, then answers the next request on a new connection', async () => {
    script = (s) => s.end('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n\r\nall of it');
    expect((await post()).body.toString()).toBe('all of it');
    script = answerOk;
    expect((await post()).status).toBe(200);
    expect(connections).toBe(2);
  });

  it('a body cut short by the close is "aborted" (ECONNRESET), and the next request gets a fresh connection', async () => {
    script = (s) => s.end('HTTP/1.1 200 OK\r\ncontent-length: 50\r\n\r\n{"short":');
    await expect(post()).rejects.toMatchObject({ message: 'aborted', code: 'ECONNRESET' });
    script = answerOk;
    expect((await post()).status).toBe(200);
    expect(connections).toBe(2);
  });

  it.each<[string, Script]>([
    ['closed without an answer', (s) => s.end()],
    ['reset without an answer', (s) => s.resetAndDestroy()],
    ['closed in the middle of the head', (s) => s.end('HTTP/1.1 200 OK\r\ncontent-le')],
    ['garbage', (s) => s.write('SSH-2.0-OpenSSH\r\n\r\n')],
    ['a bad chunk after a good head', (s) => s.write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nnope\r\n')],
    ['a body longer than its length (Node\'s parser refused the rest)', (s) => s.write(`${answer('{"n":1}')}{"extra":true}`)],
    ['lines ending in a line feed only', (s) => s.write('HTTP/1.1 200 OK\ncontent-length: 2\n\n{}')],
  ])('an answer %s is a connection error; the next request is answered on a new connection', async (_name, bad) => {
    script = bad;
    const err = await post().then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(Http1ConnectionError);
    script = answerOk;
    expect((await post()).status).toBe(200);
    expect(connections).toBe(2);
  });

  it('a refused connection is a connection error with the socket\'s error as its cause', async () => {
    const gone = createServer();
    gone.listen(0, '127.0.0.1');
    await new Promise((r) => gone.once('listening', r));
    const port = (gone.address() as AddressInfo).port;
    await new Promise((r) => gone.close(r));
    const err = (await exchange(new URL(`http://127.0.0.1:${port}/v1`), REQUEST, new AbortController().signal, abortError).catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(Http1ConnectionError);
    expect((err.cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
  });

  it('an abort while the server is silent rejects with the abort\'s error and closes that connection', async () => {
    let silent: Socket | undefined;
    script = (s) => (silent = s);
    const ac = new AbortController();
    const pending = post(ac.signal);
    await until(() => silent !== undefined);
    ac.abort(new Error('deadline'));
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await until(() => closed.includes(silent!));
    script = answerOk;
    expect((await post()).status).toBe(200);
    expect(connections).toBe(2);
  });

  it('an already aborted signal sends nothing', async () => {
    const ac = new AbortController();
    ac.abort();
    let asked = 0;
    script = (s, r) => {
      asked += 1;
      answerOk(s, r);
    };
    await expect(post(ac.signal)).rejects.toMatchObject({ name: 'AbortError' });
    expect((await post()).status).toBe(200);
    expect(asked).toBe(1);
  });

  it('drops an idle connection the server closed, and one that sent bytes nobody asked for', async () => {
    let last: Socket | undefined;
    script = (s, r) => {
      last = s;
      answerOk(s, r);
    };
    await post();
    last!.end();
    await until(() => closed.includes(last!));
    expect((await post()).status).toBe(200);
    expect(connections).toBe(2);
    last!.write('HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n');
    await until(() => closed.includes(last!));
    expect((await post()).status).toBe(200);
    expect(connections).toBe(3);
  });

  it('a server asking to close after its answer gets a new connection for the next request', async () => {
    script = (s) => s.write(answer('{}', 'connection: close\r\n'));
    await post();
    script = answerOk;
    await post();
    expect(connections).toBe(2);
  });
});

describe('idle connections are reused only as long as fetch (undici) would reuse them', () => {
  afterEach(() => vi.useRealTimers());

  it.each<[string | undefined, number]>([
    [undefined, 4000],
    ['timeout=5', 3000],
    ['timeout=5, max=100', 3000],
    ['timeout=2', 0],
    ['timeout=1', -1000],
    ['timeout=3600', 600_000],
  ])('Keep-Alive %s: idle limit %d ms', (hint, ms) => {
    expect(idleLimitMs(hint)).toBe(ms);
  });

  it('a server hinting Keep-Alive: timeout=2 or less gets a new connection for each request', async () => {
    script = (s) => s.write(answer('{}', 'keep-alive: timeout=2\r\n'));
    await post();
    await post();
    expect(connections).toBe(2);
  });

  it('a connection idle past 4 s (no hint) is closed and the next request opens another', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    let first: Socket | undefined;
    script = (s, r) => {
      first ??= s;
      answerOk(s, r);
    };
    await post();
    vi.advanceTimersByTime(3900);
    await post();
    expect(connections).toBe(1);
    vi.advanceTimersByTime(4000);
    await post();
    expect(connections).toBe(2);
    await until(() => closed.includes(first!));
  });
});
