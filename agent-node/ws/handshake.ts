import { createHash, randomBytes } from 'node:crypto';

/** RFC 6455 §1.3: the server proves it read the key by hashing it with this GUID. */
const ACCEPT_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/** A 101 answer's head is a few hundred bytes; anything this long is not an orchestrator's. */
export const MAX_RESPONSE_HEAD_BYTES = 16 * 1024;

export interface Handshake {
  /** The opening request's bytes. */
  request: string;
  /** What the server's `Sec-WebSocket-Accept` must be. */
  accept: string;
}

/** The opening handshake for `url` (ws: or wss:), with a fresh random key; no subprotocol, no extension. */
export function openingHandshake(url: URL): Handshake {
  const key = randomBytes(16).toString('base64');
  const request =
    `GET ${url.pathname}${url.search} HTTP/1.1\r\n` +
    `Host: ${url.host}\r\n` +
    'Upgrade: websocket\r\n' +
    'Connection: Upgrade\r\n' +
    `Sec-WebSocket-Key: ${key}\r\n` +
    'Sec-WebSocket-Version: 13\r\n\r\n';
  return { request, accept: createHash('sha1').update(key + ACCEPT_GUID).digest('base64') };
}

/** A header name is a token (RFC 9110 §5.6.2): no space before its colon, as llhttp (node:http, `ws`) refuses. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Control characters other than tab, and DEL: never in a field value (llhttp refuses them too). */
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;
/**
 * Headers whose repetition is refused: two of these would be two answers to one question (`ws` joins
 * repeats with ", " and then fails the comparison). Any other header may repeat, as HTTP allows: a proxy
 * or load balancer in front of `parley serve` adds its own (`Set-Cookie` twice for sticky sessions, a
 * second `Connection`), and `ws` accepts those.
 */
const SINGLE = new Set(['upgrade', 'sec-websocket-accept', 'sec-websocket-extensions', 'sec-websocket-protocol']);

/**
 * Checks the server's answer head (status line and headers, without the blank line). Returns null if it
 * accepts the connection as asked, else why not. Untrusted bytes: only compared, never echoed whole.
 */
export function refusalOf(head: string, expectedAccept: string): string | null {
  const lines = head.split('\r\n');
  const status = /^HTTP\/1\.1 (\d{3})(?: |$)/.exec(lines[0] ?? '');
  if (!status) return 'Invalid HTTP response from the server';
  if (status[1] !== '101') return `Unexpected server response: ${status[1]}`;
  const headers = headersOf(lines.slice(1));
  if (typeof headers === 'string') return headers;
  if (headers.get('upgrade')?.toLowerCase() !== 'websocket') return 'Invalid Upgrade header';
  const connection = headers.get('connection')?.toLowerCase().split(',').map((t) => t.trim()) ?? [];
  if (!connection.includes('upgrade')) return 'Invalid Connection header';
  if (headers.get('sec-websocket-accept') !== expectedAccept) return 'Invalid Sec-WebSocket-Accept header';
  if (headers.has('sec-websocket-extensions')) return 'Server sent an extension that was not requested';
  if (headers.has('sec-websocket-protocol')) return 'Server sent a subprotocol that was not requested';
  return null;
}

/** The header lines by lower-case name, repeats joined with ", " (as node:http joins them); or why not. */
function headersOf(lines: readonly string[]): Map<string, string> | string {
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).toLowerCase();
    if (colon <= 0 || !TOKEN.test(name) || CONTROL.test(line)) return 'Invalid header line in the server response';
    const value = line.slice(colon + 1).trim();
    const before = headers.get(name);
    if (before !== undefined && SINGLE.has(name)) return `Repeated ${name} header in the server response`;
    headers.set(name, before === undefined ? value : `${before}, ${value}`);
  }
  return headers;
}
