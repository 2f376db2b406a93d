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
});
