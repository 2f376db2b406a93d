import { describe, expect, it } from 'vitest';
import { clientFrame, WsOp } from './frame-writer.js';

/** Reads one client frame back: header fields, mask and the unmasked payload. */
function unframe(frame: Buffer) {
  const fin = (frame[0]! & 0x80) !== 0;
  const opcode = frame[0]! & 0x0f;
  const masked = (frame[1]! & 0x80) !== 0;
  let length = frame[1]! & 0x7f;
  let at = 2;
  if (length === 126) [length, at] = [frame.readUInt16BE(2), 4];
  else if (length === 127) [length, at] = [Number(frame.readBigUInt64BE(2)), 10];
  const mask = frame.subarray(at, at + 4);
  const payload = Buffer.from(frame.subarray(at + 4));
  for (let i = 0; i < payload.length; i++) payload[i]! ^= mask[i & 3]!;
  return { fin, opcode, masked, length, rsv: frame[0]! & 0x70, mask: Buffer.from(mask), payload, form: at };
}

describe('clientFrame', () => {
  it('frames text of every length form, masked, with the payload intact', () => {
    for (const n of [0, 1, 2, 3, 4, 5, 125, 126, 127, 1000, 65_535, 65_536, 70_001]) {
      const text = 'ab€'.repeat(n).slice(0, n);
      const f = unframe(clientFrame(WsOp.Text, text));
      expect(f).toMatchObject({ fin: true, opcode: 1, masked: true, rsv: 0, length: Buffer.byteLength(text) });
      expect(f.form).toBe(f.length < 126 ? 2 : f.length < 65_536 ? 4 : 10);
      expect(f.payload.toString('utf8')).toBe(text);
    }
  });

  it('frames a buffer payload (pong, close) without changing the caller\'s bytes', () => {
    const body = Buffer.from([3, 232, 98, 121, 101]);
    const f = unframe(clientFrame(WsOp.Close, body));
    expect(f.opcode).toBe(8);
    expect(f.payload).toEqual(body);
    expect(body).toEqual(Buffer.from([3, 232, 98, 121, 101]));
  });

  it('masks each frame with a fresh random key', () => {
    const masks = new Set<string>();
    for (let i = 0; i < 3000; i++) masks.add(unframe(clientFrame(WsOp.Text, 'x')).mask.toString('hex'));
    // 3,000 draws of 32 random bits: a repeat is possible but rare; a fixed or counting mask fails here.
    expect(masks.size).toBeGreaterThan(2990);
    const masked = clientFrame(WsOp.Text, 'a'.repeat(64));
    expect(masked.subarray(6).toString()).not.toBe('a'.repeat(64));
  });
});
