import { isUtf8 } from 'node:buffer';

/** Close codes this client sends or reports (RFC 6455 §7.4.1). */
export const WsCode = {
  Normal: 1000,
  ProtocolError: 1002,
  NoStatus: 1005,
  Abnormal: 1006,
  InvalidData: 1007,
  PolicyViolation: 1008,
  TooBig: 1009,
} as const;

/**
 * What the reader found in the server's bytes. Buffers are views of the socket's read buffer, which is
 * reused for the next read: a listener uses them before it returns (the seat client decodes at once).
 */
export type ReadEvent =
  | { kind: 'message'; data: Buffer; text: boolean }
  | { kind: 'ping'; data: Buffer }
  | { kind: 'pong' }
  | { kind: 'close'; code: number; reason: string }
  | { kind: 'fail'; code: number; message: string };

const OP_CONTINUATION = 0x0;
const OP_TEXT = 0x1;
const OP_BINARY = 0x2;
const OP_CLOSE = 0x8;
const OP_PING = 0x9;
const OP_PONG = 0xa;

/**
 * Frames one message may come in (`ws`'s default, and its 1008). The byte limit alone does not bound the
 * reader's memory: empty continuation frames add nothing to the length, and each one cost an object.
 */
export const MAX_FRAGMENTS = 16 * 1024;

/** Codes a peer may put in a close frame (RFC 6455 §7.4: 1004–1006 and 1015 are never sent). */
function isSendableCode(code: number): boolean {
  return (code >= 1000 && code <= 1014 && code !== 1004 && code !== 1005 && code !== 1006) || (code >= 3000 && code <= 4999);
}

interface Head {
  fin: boolean;
  opcode: number;
  length: number;
}

/**
 * Reads server-to-client WebSocket frames (RFC 6455 §5) from a byte stream, in whatever pieces it arrives.
 * No extension is ever negotiated, so reserved bits are refused; server frames must be unmasked; control
 * frames are whole and at most 125 bytes; a message (all its fragments) is at most `maxPayload` bytes,
 * checked from the header before anything is allocated; text must be UTF-8. After a close or a failure
 * the reader ignores what follows. A payload that arrives in pieces is copied once into its own buffer.
 */
export class FrameReader {
  private readonly head = Buffer.alloc(14);
  private headFill = 0;
  private frame: Head | null = null;
  private payload: Buffer | null = null;
  private payloadFill = 0;
  /** Fragments of the message in progress, and whether it is text. */
  private fragments: Buffer[] = [];
  private fragmentBytes = 0;
  /** Frames of the message in progress so far, empty ones included. */
  private fragmentCount = 0;
  private messageText: boolean | null = null;
  private done = false;

  constructor(
    private readonly maxPayload: number,
    private readonly emit: (event: ReadEvent) => void,
  ) {}

  push(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length && !this.done) {
      if (!this.frame) {
        at = this.readHead(chunk, at);
        continue;
      }
      const frame = this.frame;
      if (!this.payload && chunk.length - at >= frame.length) {
        // The whole payload is in this chunk: no copy.
        this.frame = null;
        this.onFrame(frame, chunk.subarray(at, at + frame.length));
        at += frame.length;
        continue;
      }
      this.payload ??= Buffer.allocUnsafe(frame.length);
      const n = Math.min(frame.length - this.payloadFill, chunk.length - at);
      chunk.copy(this.payload, this.payloadFill, at, at + n);
      this.payloadFill += n;
      at += n;
      if (this.payloadFill === frame.length) {
        const payload = this.payload;
        this.frame = null;
        this.payload = null;
        this.payloadFill = 0;
        this.onFrame(frame, payload);
      }
    }
  }

  /** Copies header bytes until the header is whole; returns where the chunk's next unread byte is. */
  private readHead(chunk: Buffer, at: number): number {
    while (at < chunk.length) {
      this.head[this.headFill++] = chunk[at++]!;
      const need = this.headLength();
      if (this.headFill < need) continue;
      this.headFill = 0;
      const frame = this.parseHead(need);
      if (!frame) return at;
      if (frame.length === 0) this.onFrame(frame, Buffer.alloc(0));
      else this.frame = frame;
      return at;
    }
    return at;
  }

  /** Bytes of the header, as far as the bytes so far tell (2, then 4 or 10 once the length byte is in). */
  private headLength(): number {
    if (this.headFill < 2) return 2;
    const len7 = this.head[1]! & 0x7f;
    return len7 === 126 ? 4 : len7 === 127 ? 10 : 2;
  }

  private parseHead(size: number): Head | null {
    const b0 = this.head[0]!;
    const b1 = this.head[1]!;
    const fin = (b0 & 0x80) !== 0;
    const opcode = b0 & 0x0f;
    if ((b0 & 0x70) !== 0) return this.fail(WsCode.ProtocolError, 'reserved bits set without an extension');
    if ((b1 & 0x80) !== 0) return this.fail(WsCode.ProtocolError, 'a server frame must not be masked');
    const control = opcode >= 0x8;
    if (control ? opcode > OP_PONG : opcode > OP_BINARY) return this.fail(WsCode.ProtocolError, `unknown opcode ${opcode}`);
    let length = b1 & 0x7f;
    if (size === 4) length = this.head.readUInt16BE(2);
    if (size === 10) {
      const high = this.head.readUInt32BE(2);
      if (high >= 0x80000000) return this.fail(WsCode.ProtocolError, 'payload length with its most significant bit set');
      if (high !== 0) return this.fail(WsCode.TooBig, `payload over ${this.maxPayload} bytes`);
      length = this.head.readUInt32BE(6);
    }
    if (control) {
      if (!fin) return this.fail(WsCode.ProtocolError, 'a fragmented control frame');
      // The 7-bit field itself (RFC 6455 §5.5), as `ws` checks it: a control frame never takes a longer form.
      if ((b1 & 0x7f) > 125) return this.fail(WsCode.ProtocolError, 'a control frame over 125 bytes');
      return { fin, opcode, length };
    }
    if (opcode === OP_CONTINUATION && this.messageText === null) return this.fail(WsCode.ProtocolError, 'a continuation frame with no message begun');
    if (opcode !== OP_CONTINUATION && this.messageText !== null) return this.fail(WsCode.ProtocolError, 'a new message before the last one ended');
    if (this.fragmentBytes + length > this.maxPayload) return this.fail(WsCode.TooBig, `message over ${this.maxPayload} bytes`);
    if (++this.fragmentCount > MAX_FRAGMENTS) return this.fail(WsCode.PolicyViolation, `message in over ${MAX_FRAGMENTS} frames`);
    return { fin, opcode, length };
  }

  private onFrame(frame: Head, payload: Buffer): void {
    switch (frame.opcode) {
      case OP_PING:
        return this.emit({ kind: 'ping', data: payload });
      case OP_PONG:
        return this.emit({ kind: 'pong' });
      case OP_CLOSE:
        return this.onClose(payload);
      default:
        return this.onData(frame, payload);
    }
  }

  private onData(frame: Head, payload: Buffer): void {
    const text = frame.opcode === OP_CONTINUATION ? this.messageText! : frame.opcode === OP_TEXT;
    // Fragments are kept past this chunk, so they are copied out of the reused read buffer (empty ones are
    // not kept at all).
    if (payload.length > 0 && !(frame.fin && this.fragments.length === 0)) {
      this.fragments.push(Buffer.from(payload));
      this.fragmentBytes += payload.length;
    }
    if (!frame.fin) {
      this.messageText = text;
      return;
    }
    const whole = this.fragments.length === 0 ? payload : this.fragments.length === 1 ? this.fragments[0]! : Buffer.concat(this.fragments, this.fragmentBytes);
    this.fragments = [];
    this.fragmentBytes = 0;
    this.fragmentCount = 0;
    this.messageText = null;
    this.deliver(whole, text);
  }

  private deliver(data: Buffer, text: boolean): void {
    if (text && !isUtf8(data)) {
      this.fail(WsCode.InvalidData, 'a text message that is not UTF-8');
      return;
    }
    this.emit({ kind: 'message', data, text });
  }

  private onClose(payload: Buffer): void {
    if (payload.length === 0) {
      this.done = true;
      return this.emit({ kind: 'close', code: WsCode.NoStatus, reason: '' });
    }
    if (payload.length === 1) return void this.fail(WsCode.ProtocolError, 'a close frame of one byte');
    const code = payload.readUInt16BE(0);
    if (!isSendableCode(code)) return void this.fail(WsCode.ProtocolError, `close code ${code} is not one a peer may send`);
    const reason = payload.subarray(2);
    if (!isUtf8(reason)) return void this.fail(WsCode.InvalidData, 'a close reason that is not UTF-8');
    this.done = true;
    this.emit({ kind: 'close', code, reason: reason.toString('utf8') });
  }

  private fail(code: number, message: string): null {
    this.done = true;
    this.emit({ kind: 'fail', code, message });
    return null;
  }
}
