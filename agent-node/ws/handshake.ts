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

/**
 * Checks the server's answer head (status line and headers, without the blank line). Returns null if it
 * accepts the connection as asked, else why not. Untrusted bytes: only compared, never echoed whole.
 */
export function refusalOf(head: string, expectedAccept: string): string | null {
  const lines = head.split('\r\n');
  const status = /^HTTP\/1\.1 (\d{3})(?: |$)/.exec(lines[0] ?? '');
  if (!status) return 'Invalid HTTP response from the server';
  if (status[1] !== '101') return `Unexpected server response: ${status[1]}`;
  const headers = new Map<string, string>();
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) return 'Invalid header line in the server response';
    const name = line.slice(0, colon).trim().toLowerCase();
    // A repeated header (two accepts, two upgrades) is refused rather than guessed at.
    if (headers.has(name)) return `Repeated ${name} header in the server response`;
    headers.set(name, line.slice(colon + 1).trim());
  }
  if (headers.get('upgrade')?.toLowerCase() !== 'websocket') return 'Invalid Upgrade header';
  const connection = headers.get('connection')?.toLowerCase().split(',').map((t) => t.trim()) ?? [];
  if (!connection.includes('upgrade')) return 'Invalid Connection header';
  if (headers.get('sec-websocket-accept') !== expectedAccept) return 'Invalid Sec-WebSocket-Accept header';
  if (headers.has('sec-websocket-extensions')) return 'Server sent an extension that was not requested';
  if (headers.has('sec-websocket-protocol')) return 'Server sent a subprotocol that was not requested';
  return null;
}
