import type { IncomingMessage } from 'node:http';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { normaliseOrigin, OriginGuard } from './origin-guard.js';

/** A request as the guard sees it: headers and the socket's local end. */
const req = (headers: Record<string, string>, local = { localAddress: '127.0.0.1', localPort: 4321 }) =>
  ({ headers, socket: local }) as unknown as IncomingMessage;

describe('OriginGuard (issue 19, k03/a04)', () => {
  const guard = new OriginGuard(['http://study.example:8080']);

  it('admits non-browser clients (no Origin) and this server\'s own origin, by any name it answers to', () => {
    expect(guard.refusal(req({ host: '127.0.0.1:4321' }))).toBeNull();
    expect(guard.refusal(req({ host: 'localhost:4321', origin: 'http://localhost:4321' }))).toBeNull();
    expect(guard.refusal(req({ host: '[::1]:4321', origin: 'http://[::1]:4321' }))).toBeNull();
    expect(guard.refusal(req({ host: `${hostname()}:4321` }))).toBeNull();
    // The address the request arrived on (a LAN address under --host 0.0.0.0).
    expect(guard.refusal(req({ host: '10.1.2.3:4321', origin: 'http://10.1.2.3:4321' }, { localAddress: '::ffff:10.1.2.3', localPort: 4321 }))).toBeNull();
  });

  it('refuses a rebinding Host, another origin, another port on localhost, and Origin: null', () => {
    expect(guard.refusal(req({ host: 'attacker.example:4321' }))).toMatch(/Host/);
    expect(guard.refusal(req({ host: '127.0.0.1:4321', origin: 'http://evil.example' }))).toMatch(/Origin/);
    expect(guard.refusal(req({ host: '127.0.0.1:4321', origin: 'http://127.0.0.1:4322' }))).toMatch(/Origin/);
    expect(guard.refusal(req({ host: '127.0.0.1:4321', origin: 'null' }))).toMatch(/Origin/);
    expect(guard.refusal(req({ host: '127.0.0.1:4321', origin: 'https://127.0.0.1:4321' }))).toMatch(/Origin/);
    expect(guard.refusal(req({}))).toMatch(/Host/);
    expect(guard.refusal(req({ host: 'user@127.0.0.1:4321' }))).toMatch(/Host/);
  });

  it('admits the name it was told to listen on (--host), on the port it prints, and no other name', () => {
    const bound = new OriginGuard([], 'Lab.Example');
    const lan = { localAddress: '10.1.2.3', localPort: 4321 };
    expect(bound.refusal(req({ host: 'lab.example:4321', origin: 'http://lab.example:4321' }, lan))).toBeNull();
    expect(bound.refusal(req({ host: 'attacker.example:4321' }, lan))).toMatch(/Host/);
    expect(guard.refusal(req({ host: 'lab.example:4321' }, lan))).toMatch(/Host/);
    expect(new OriginGuard([], '::1').refusal(req({ host: '[::1]:4321' }))).toBeNull();
    // A wildcard bind is not a name: the address the request arrived on is what counts.
    expect(new OriginGuard([], '0.0.0.0').refusal(req({ host: '0.0.0.0:4321' }, lan))).toMatch(/Host/);
  });

  it('admits what --allow-origin names, as an origin and as a host name', () => {
    expect(guard.refusal(req({ host: '127.0.0.1:4321', origin: 'http://study.example:8080' }))).toBeNull();
    expect(guard.refusal(req({ host: 'study.example:8080', origin: 'http://study.example:8080' }))).toBeNull();
    expect(normaliseOrigin('HTTP://Study.Example:80/path')).toBe('http://study.example');
    expect(() => normaliseOrigin('javascript:alert(1)')).toThrow();
  });
});
