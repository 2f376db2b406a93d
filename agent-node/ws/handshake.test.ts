import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openingHandshake, refusalOf } from './handshake.js';

const acceptFor = (key: string) => createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');

describe('opening handshake', () => {
  it('asks for the path and host with a fresh 16-byte key, and expects its RFC 6455 accept value', () => {
    const a = openingHandshake(new URL('ws://[::1]:8080/agent?x=1'));
    const b = openingHandshake(new URL('ws://127.0.0.1/agent'));
    expect(a.request).toMatch(/^GET \/agent\?x=1 HTTP\/1\.1\r\nHost: \[::1\]:8080\r\n/);
    expect(b.request).toContain('Host: 127.0.0.1\r\n');
    const key = /Sec-WebSocket-Key: (\S+)\r\n/.exec(a.request)![1]!;
    expect(Buffer.from(key, 'base64')).toHaveLength(16);
    expect(a.accept).toBe(acceptFor(key));
    expect(b.request).not.toContain(key);
    expect(a.request).toContain('Sec-WebSocket-Version: 13\r\n');
    expect(a.request).not.toMatch(/Extensions|Protocol/i);
    expect(a.request.endsWith('\r\n\r\n')).toBe(true);
  });

  const ok = (accept: string, extra = '') => `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}${extra}`;

  it('accepts a 101 with the right accept value, whatever the header names\' case', () => {
    expect(refusalOf(ok('abc='), 'abc=')).toBeNull();
    expect(refusalOf('HTTP/1.1 101 OK\r\nupgrade: WebSocket\r\nconnection: keep-alive, upgrade\r\nsec-websocket-accept: abc=', 'abc=')).toBeNull();
  });

  it('refuses anything else: another status, a wrong or missing accept, missing upgrade, extensions or protocols it did not ask for', () => {
    expect(refusalOf('HTTP/1.1 404 Not Found\r\nContent-Length: 0', 'abc=')).toBe('Unexpected server response: 404');
    expect(refusalOf('HTTP/1.0 101 OK', 'abc=')).toMatch(/Invalid HTTP/);
    expect(refusalOf('garbage', 'abc=')).toMatch(/Invalid HTTP/);
    expect(refusalOf(ok('abd='), 'abc=')).toMatch(/Accept/);
    expect(refusalOf(ok('abc=').replace(/\r\nSec-WebSocket-Accept: abc=/, ''), 'abc=')).toMatch(/Accept/);
    expect(refusalOf(ok('abc=').replace('Upgrade: websocket', 'Upgrade: h2c'), 'abc=')).toMatch(/Upgrade/);
    expect(refusalOf(ok('abc=').replace('Connection: Upgrade', 'Connection: close'), 'abc=')).toMatch(/Connection/);
    expect(refusalOf(ok('abc=', '\r\nSec-WebSocket-Extensions: permessage-deflate'), 'abc=')).toMatch(/extension/);
    expect(refusalOf(ok('abc=', '\r\nSec-WebSocket-Protocol: chat'), 'abc=')).toMatch(/subprotocol/);
    expect(refusalOf(ok('abc=', '\r\nSec-WebSocket-Accept: abc='), 'abc=')).toMatch(/Repeated/);
    expect(refusalOf(ok('abc=', '\r\nno colon here'), 'abc=')).toMatch(/Invalid header/);
  });

  it('takes headers a proxy in front of the server may repeat (two Set-Cookie, a second Connection), as ws does', () => {
    // Found in review: every repeated header was refused, so a load balancer's two stickiness cookies
    // failed every seat's connection.
    expect(refusalOf(ok('abc=', '\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\nVia: 1.1 lb\r\nVia: 1.1 edge'), 'abc=')).toBeNull();
    expect(refusalOf(ok('abc=').replace('Connection: Upgrade', 'Connection: keep-alive\r\nConnection: Upgrade'), 'abc=')).toBeNull();
    expect(refusalOf(ok('abc=').replace('Connection: Upgrade', 'Connection: keep-alive\r\nConnection: close'), 'abc=')).toMatch(/Connection/);
    for (const repeated of ['Upgrade: websocket', 'Sec-WebSocket-Extensions: x', 'Sec-WebSocket-Protocol: chat']) {
      const twice = ok('abc=', `\r\n${repeated}\r\n${repeated}`).replace('Upgrade: websocket\r\n', repeated.startsWith('Upgrade') ? '' : 'Upgrade: websocket\r\n');
      expect(refusalOf(twice, 'abc='), repeated).toMatch(/Repeated/);
    }
  });

  it('refuses header lines node:http refuses: a space before the colon, control characters', () => {
    expect(refusalOf(ok('abc=').replace('Upgrade: websocket', 'Upgrade : websocket'), 'abc=')).toMatch(/Invalid header/);
    expect(refusalOf(ok('abc=', '\r\n folded: line'), 'abc=')).toMatch(/Invalid header/);
    expect(refusalOf(ok('abc=', '\r\nX-A: a\u0000b'), 'abc=')).toMatch(/Invalid header/);
    expect(refusalOf(ok('abc=', '\r\nX-A: a\rb'), 'abc=')).toMatch(/Invalid header/);
    expect(refusalOf(ok('abc=', '\r\nX-A: a\tb'), 'abc=')).toBeNull();
  });
});
