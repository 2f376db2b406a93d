import { describe, expect, it } from 'vitest';
import { acceptFor, answerAccepted, encodeClose, encodeText, FrameReader, Op, openingRequest } from './floor-ws.js';

/** Unmasks a client frame the way a server does (RFC 6455 §5.3). */
function unmask(frame: Buffer): { op: number; masked: boolean; text: Buffer } {
  let len = frame[1]! & 0x7f;
  let at = 2;
  if (len === 126) [len, at] = [frame.readUInt16BE(2), 4];
  else if (len === 127) [len, at] = [Number(frame.readBigUInt64BE(2)), 10];
  const mask = frame.subarray(at, at + 4);
  const text = Buffer.from(frame.subarray(at + 4, at + 4 + len).map((b, i) => b ^ mask[i & 3]!));
  return { op: frame[0]! & 0x0f, masked: (frame[1]! & 0x80) !== 0, text };
}

describe('floor seat WebSocket framing', () => {
  it('masks a text frame as RFC 6455 §5.7 shows ("Hello" under 37 fa 21 3d)', () => {
    const frame = encodeText('Hello', Uint8Array.of(0x37, 0xfa, 0x21, 0x3d));
    expect([...frame]).toEqual([0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58]);
  });

  it('round-trips text of every length class (7-bit, 16-bit, 64-bit) and multi-byte UTF-8, with a fresh mask each frame', () => {
    for (const text of ['', 'é€😀', 'x'.repeat(125), 'y'.repeat(126), 'z'.repeat(70_000)]) {
      const frame = encodeText(text);
      const got = unmask(frame);
      expect(got).toMatchObject({ op: Op.text, masked: true });
      expect(got.text.toString('utf8')).toBe(text);
    }
    expect(encodeText('same').subarray(2, 6).equals(encodeText('same').subarray(2, 6))).toBe(false);
  });

  it('encodes a close frame with its code and reason', () => {
    const got = unmask(encodeClose(1000, 'episode ended'));
    expect(got.op).toBe(Op.close);
    expect(got.text.readUInt16BE(0)).toBe(1000);
    expect(got.text.subarray(2).toString()).toBe('episode ended');
  });

  it('reads unmasked server frames split across reads and several in one read', () => {
    const small = Buffer.from([0x81, 0x05, ...Buffer.from('Hello')]);
    const big = Buffer.concat([Buffer.from([0x81, 126, 0x01, 0x00]), Buffer.alloc(256, 0x61)]);
    const ping = Buffer.from([0x89, 0x02, 0x68, 0x69]);
    const all = Buffer.concat([small, big, ping]);
    const r = new FrameReader();
    const frames = [...r.push(all.subarray(0, 3)), ...r.push(all.subarray(3, 9)), ...r.push(all.subarray(9))];
    expect(frames.map((f) => [f.op, f.payload.toString()])).toEqual([
      [Op.text, 'Hello'],
      [Op.text, 'a'.repeat(256)],
      [Op.ping, 'hi'],
    ]);
    const long = Buffer.concat([Buffer.from([0x81, 127, 0, 0, 0, 0, 0, 1, 0x11, 0x70]), Buffer.alloc(70_000, 0x62)]);
    expect(new FrameReader().push(long)[0]!.payload.length).toBe(70_000);
  });

  it('refuses a masked frame from the server and a fragment', () => {
    expect(() => new FrameReader().push(Buffer.from([0x81, 0x81, 1, 2, 3, 4, 5]))).toThrow(/masked/);
    expect(() => new FrameReader().push(Buffer.from([0x01, 0x01, 0x61]))).toThrow(/fragment/);
  });

  it('checks the opening answer: RFC 6455 §1.3 accept value, 101 status', () => {
    const key = 'dGhlIHNhbXBsZSBub25jZQ==';
    expect(acceptFor(key)).toBe('s3pPLMBiTxaQ9kYGzzhZRbK+xOo=');
    expect(openingRequest('127.0.0.1:9', '/agent', key)).toMatch(/^GET \/agent HTTP\/1\.1\r\nHost: 127\.0\.0\.1:9\r\n[\s\S]*Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n$/);
    const ok = 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=';
    expect(answerAccepted(ok, acceptFor(key))).toBe(true);
    expect(answerAccepted(ok.replace('s3pP', 'xxxx'), acceptFor(key))).toBe(false);
    expect(answerAccepted(ok.replace('101 Switching Protocols', '400 Bad Request'), acceptFor(key))).toBe(false);
  });
});
