/**
 * The floor seat's WebSocket (RFC 6455) by hand, the least a client must do against the orchestrator's
 * agent endpoint (`ws` on the server side, no extensions offered, so none negotiated): the opening
 * request and the check of its answer, masked frames out (a client must mask every frame, with a key
 * it cannot predict), unmasked frames in. Not supported because the endpoint never sends them:
 * fragmented messages, binary frames, extensions. Bench-only (bench/floor.md), never the product.
 */
import { createHash, randomBytes, randomFillSync } from 'node:crypto';

/** RFC 6455 §1.3: the GUID the server appends to the key before hashing. */
const WS_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

export const Op = { text: 0x1, close: 0x8, ping: 0x9, pong: 0xa } as const;

/** A fresh Sec-WebSocket-Key (16 random bytes, base64) and the accept value the server must answer with. */
export function handshakeKey(): { key: string; accept: string } {
  const key = randomBytes(16).toString('base64');
  return { key, accept: acceptFor(key) };
}

export function acceptFor(key: string): string {
  return createHash('sha1').update(key + WS_GUID).digest('base64');
}

/** The opening request for `path` on `host` (host:port). */
export function openingRequest(host: string, path: string, key: string): string {
  return `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`;
}

/**
 * Whether `head` (the answer's bytes up to the blank line) switches protocols with the right accept
 * value. Header names are case-insensitive (RFC 7230); `ws` writes them capitalised.
 */
export function answerAccepted(head: string, accept: string): boolean {
  if (!head.startsWith('HTTP/1.1 101')) return false;
  const m = /\r\nsec-websocket-accept:[ \t]*([^\r\n]*)/i.exec(head);
  return m !== null && m[1]!.trim() === accept;
}

/** Mask keys drawn from the OS's random source 1 KiB at a time (256 frames), not per frame. */
let keys = Buffer.alloc(0);
let keyAt = 0;
function nextMask(): Buffer {
  if (keyAt + 4 > keys.length) {
    keys = randomFillSync(Buffer.allocUnsafe(1024));
    keyAt = 0;
  }
  keyAt += 4;
  return keys.subarray(keyAt - 4, keyAt);
}

/** One masked client frame with FIN set: `op` and `payload` (a text frame's UTF-8 bytes, a close frame's code and reason). */
export function encodeFrame(op: number, payload: Buffer | string, mask: Uint8Array = nextMask()): Buffer {
  const len = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
  const head = len < 126 ? 6 : len < 65536 ? 8 : 14;
  const out = Buffer.allocUnsafe(head + len);
  out[0] = 0x80 | op;
  if (len < 126) out[1] = 0x80 | len;
  else if (len < 65536) {
    out[1] = 0x80 | 126;
    out.writeUInt16BE(len, 2);
  } else {
    out[1] = 0x80 | 127;
    out.writeBigUInt64BE(BigInt(len), 2);
  }
  out[head - 4] = mask[0]!;
  out[head - 3] = mask[1]!;
  out[head - 2] = mask[2]!;
  out[head - 1] = mask[3]!;
  if (typeof payload === 'string') out.write(payload, head, 'utf8');
  else payload.copy(out, head);
  for (let i = 0; i < len; i++) out[head + i]! ^= mask[i & 3]!;
  return out;
}

export const encodeText = (text: string, mask?: Uint8Array): Buffer => encodeFrame(Op.text, text, mask);

/** A close frame with `code` and a short reason. */
export function encodeClose(code: number, reason = '', mask?: Uint8Array): Buffer {
  const body = Buffer.allocUnsafe(2 + Buffer.byteLength(reason));
  body.writeUInt16BE(code, 0);
  body.write(reason, 2, 'utf8');
  return encodeFrame(Op.close, body, mask);
}

export interface InFrame {
  op: number;
  payload: Buffer;
}

/**
 * Frames from the server, from the bytes as they arrive (a frame may span reads, a read may hold
 * several). Throws on what a server must not send (a masked frame) and on what the floor does not
 * support (a fragment, a length over 2^32).
 */
export class FrameReader {
  private pending: Buffer | null = null;

  push(chunk: Buffer): InFrame[] {
    let buf = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    const out: InFrame[] = [];
    for (;;) {
      if (buf.length < 2) break;
      const b0 = buf[0]!;
      const b1 = buf[1]!;
      if ((b0 & 0x80) === 0 || (b0 & 0x0f) === 0) throw new Error('fragmented frame (not supported by the floor seat)');
      if (b1 & 0x80) throw new Error('masked frame from the server');
      let len = b1 & 0x7f;
      let at = 2;
      if (len === 126) {
        if (buf.length < 4) break;
        len = buf.readUInt16BE(2);
        at = 4;
      } else if (len === 127) {
        if (buf.length < 10) break;
        if (buf.readUInt32BE(2) !== 0) throw new Error('frame over 4 GiB');
        len = buf.readUInt32BE(6);
        at = 10;
      }
      if (buf.length < at + len) break;
      out.push({ op: b0 & 0x0f, payload: buf.subarray(at, at + len) });
      buf = buf.subarray(at + len);
    }
    // Kept only when a frame is unfinished (copied: the caller's chunk is not ours to hold).
    this.pending = buf.length ? Buffer.from(buf) : null;
    return out;
  }
}
