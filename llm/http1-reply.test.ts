import { describe, expect, it } from 'vitest';
import { Http1ParseError, Http1Reply } from './http1-reply.js';

/** An answer with a JSON body; the text is read as latin1 (each character one byte). */
const ok = (body: string, extra = '') => `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n${extra}\r\n${body}`;
const CHUNKED = 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n7\r\n, world\r\n0\r\nx-trailer: 1\r\n\r\n';

/** Feeds `text` in pieces of `size` bytes; the reply, or the error it threw. */
function read(text: string | Buffer, size = Infinity): Http1Reply {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'latin1') : text;
  const reply = new Http1Reply();
  for (let at = 0; at < bytes.length; at += size) reply.push(bytes.subarray(at, Math.min(bytes.length, at + size)));
  return reply;
}

describe('an HTTP/1.1 answer read from a connection (llm/http1-reply.ts)', () => {
  it.each([1, 2, 3, 7, 64, Infinity])('reads a content-length answer split every %s bytes the same', (size) => {
    const reply = read(ok('{"a":"é"}'.replace('é', '\u00c3\u00a9')), size);
    expect(reply.done).toBe(true);
    expect(reply.reusable).toBe(true);
    expect(reply.head?.status).toBe(200);
    expect(reply.head?.headers.get('content-type')).toBe('application/json');
    expect(reply.body().toString('utf8')).toBe('{"a":"é"}');
  });

  it.each([1, 4, Infinity])('reads a chunked answer (extensions, trailers) split every %s bytes', (size) => {
    const reply = read(CHUNKED, size);
    expect(reply.done).toBe(true);
    expect(reply.reusable).toBe(true);
    expect(reply.body().toString()).toBe('hello, world');
  });

  it('is not done before the last byte, whatever the framing', () => {
    for (const text of [ok('{"x":1}'), CHUNKED]) {
      const reply = read(text.slice(0, -1));
      expect(reply.done).toBe(false);
      expect(reply.close()).toBe(false);
      expect(reply.head).not.toBeNull();
    }
  });

  it('a body cut short by the close is not an answer; a close before the head has no head', () => {
    const short = read('HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nabc');
    expect(short.close()).toBe(false);
    expect(short.head?.status).toBe(200);
    const headless = read('HTTP/1.1 200 OK\r\ncontent-le');
    expect(headless.close()).toBe(false);
    expect(headless.head).toBeNull();
  });

  it('reads a body without framing to the close, and never reuses that connection', () => {
    const reply = read('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n\r\npart one, ');
    reply.push(Buffer.from('part two'));
    expect(reply.done).toBe(false);
    expect(reply.close()).toBe(true);
    expect(reply.reusable).toBe(false);
    expect(reply.body().toString()).toBe('part one, part two');
  });

  it('bytes past the answer\'s end read with it are refused (as Node\'s parser does); later ones end its reuse', () => {
    expect(() => read(`${ok('{}')}trailing`)).toThrow(/after the end/);
    expect(() => read(`${CHUNKED}junk`)).toThrow(/after the end/);
    expect(() => read('HTTP/1.1 204 No Content\r\n\r\nx')).toThrow(/after the end/);
    const later = read(ok('{}'));
    expect(later.reusable).toBe(true);
    later.push(Buffer.from('x'));
    expect(later.reusable).toBe(false);
  });

  it('keeps the connection as HTTP/1.x says: close asked, 1.0 without keep-alive', () => {
    expect(read(ok('{}', 'connection: close\r\n')).reusable).toBe(false);
    expect(read(ok('{}', 'Connection: Keep-Alive, Close\r\n')).reusable).toBe(false);
    expect(read(ok('{}').replace('HTTP/1.1', 'HTTP/1.0')).reusable).toBe(false);
    expect(read(ok('{}', 'connection: keep-alive\r\n').replace('HTTP/1.1', 'HTTP/1.0')).reusable).toBe(true);
  });

  it('skips interim (1xx) answers; 204 and a zero length have no body', () => {
    const reply = read(`HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nlink: x\r\n\r\n${ok('{"b":2}')}`, 5);
    expect(reply.head?.status).toBe(200);
    expect(reply.body().toString()).toBe('{"b":2}');
    const empty = read('HTTP/1.1 204 No Content\r\n\r\n');
    expect(empty.done).toBe(true);
    expect(empty.body().length).toBe(0);
    expect(read('HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n').done).toBe(true);
  });

  it('joins repeated headers as Node does (the first only for the ones it keeps once)', () => {
    const reply = read('HTTP/1.1 429 X\r\nRetry-After: 2\r\nretry-after: 9\r\nx-a: 1\r\nX-A:  2 \r\nContent-Type: text/plain\r\ncontent-type: application/json\r\ncontent-length: 0\r\n\r\n');
    expect(reply.head?.headers.get('retry-after')).toBe('2');
    expect(reply.head?.headers.get('x-a')).toBe('1, 2');
    expect(reply.head?.headers.get('content-type')).toBe('text/plain');
  });

  it.each<[string, string]>([
    ['a status line that is not HTTP/1.x', 'HTTP/2 200 OK\r\n\r\n'],
    ['a status that is not three digits', 'HTTP/1.1 20 OK\r\n\r\n'],
    ['garbage', 'hello there\r\n\r\n'],
    ['a header without a colon', 'HTTP/1.1 200 OK\r\nbroken header\r\n\r\n'],
    ['a space before the colon', 'HTTP/1.1 200 OK\r\ncontent-length : 2\r\n\r\nab'],
    ['a folded header line', 'HTTP/1.1 200 OK\r\nx-a: 1\r\n  more\r\ncontent-length: 0\r\n\r\n'],
    ['a content length that is not a number', 'HTTP/1.1 200 OK\r\ncontent-length: 12abc\r\n\r\n'],
    ['a negative content length', 'HTTP/1.1 200 OK\r\ncontent-length: -1\r\n\r\n'],
    ['two content lengths', 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\ncontent-length: 3\r\n\r\nabc'],
    ['both framings', 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\ntransfer-encoding: chunked\r\n\r\n2\r\nab\r\n0\r\n\r\n'],
    ['a chunk size that is not hex', 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\nab\r\n0\r\n\r\n'],
    ['a chunk longer than its size', 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n'],
    ['lines ending in a line feed only', 'HTTP/1.1 200 OK\ncontent-length: 2\n\nab'],
    ['a chunk size line ending in a line feed only', 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\n'],
    ['an upgrade nobody asked for', 'HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\n\r\n'],
    // Found by comparing with node:http on the same bytes (llhttp refuses each of these).
    ['a control character in a header value', 'HTTP/1.1 200 OK\r\nx-a: a\x00b\r\ncontent-length: 0\r\n\r\n'],
    ['DEL in a header value', 'HTTP/1.1 200 OK\r\nx-a: a\x7fb\r\ncontent-length: 0\r\n\r\n'],
    ['whitespace after a chunk size', 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\t\r\nab\r\n0\r\n\r\n'],
    ['a space before a chunk extension', 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2 ;a=b\r\nab\r\n0\r\n\r\n'],
    ['a control character in a chunk extension', 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2;a\x01\r\nab\r\n0\r\n\r\n'],
    ['a malformed trailer', 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\nab\r\n0\r\nbad trailer\r\n\r\n'],
  ])('refuses %s', (_name, text) => {
    expect(() => read(text)).toThrow(Http1ParseError);
    expect(() => read(text, 1)).toThrow(Http1ParseError);
  });

  it('reads a chunk size with leading zeros past twelve digits, as Node does', () => {
    const reply = read('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n0000000000000002\r\nab\r\n0\r\n\r\n', 3);
    expect(reply.done).toBe(true);
    expect(reply.body().toString()).toBe('ab');
  });

  it('refuses a head over 16 KB, or an endless chunk line, before holding more of it', () => {
    const big = `HTTP/1.1 200 OK\r\nx-big: ${'a'.repeat(17 * 1024)}`;
    expect(() => read(big, 4096)).toThrow(/16 KB/);
    expect(() => read(`HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n${'1'.repeat(2000)}`)).toThrow(/chunk line/);
  });
});

describe('a body past its bound is refused, whatever its framing (memory stays bounded against a server that never stops)', () => {
  const limited = (text: string, size: number) => {
    const reply = new Http1Reply(10);
    const bytes = Buffer.from(text, 'latin1');
    for (let at = 0; at < bytes.length; at += size) reply.push(bytes.subarray(at, Math.min(bytes.length, at + size)));
    return reply;
  };

  it.each([1, 3, Infinity])('split every %s bytes: ten bytes are read, eleven refused', (size) => {
    expect(limited(ok('0123456789'), size).body().toString()).toBe('0123456789');
    expect(() => limited(ok('0123456789a'), size)).toThrow(Http1ParseError);
    expect(() => limited('HTTP/1.1 200 OK\r\n\r\n0123456789a', size)).toThrow(/over 10 bytes/);
    expect(() => limited('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n6\r\n012345\r\n5\r\n6789a\r\n0\r\n\r\n', size)).toThrow(Http1ParseError);
  });
});
