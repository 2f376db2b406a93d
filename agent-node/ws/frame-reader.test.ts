import { describe, expect, it } from 'vitest';
import { FrameReader, MAX_FRAGMENTS, WsCode, type ReadEvent } from './frame-reader.js';

/** A server frame as the wire has it; every field can be set wrong on purpose. */
function frame(opcode: number, payload: Buffer | string, o: { fin?: boolean; rsv?: number; mask?: boolean; length?: number; form?: 7 | 16 | 64 } = {}): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
  const length = o.length ?? body.length;
  const form = o.form ?? (length < 126 ? 7 : length < 0x10000 ? 16 : 64);
  const head = Buffer.alloc(form === 7 ? 2 : form === 16 ? 4 : 10);
  head[0] = ((o.fin ?? true) ? 0x80 : 0) | ((o.rsv ?? 0) << 4) | opcode;
  const maskBit = o.mask ? 0x80 : 0;
  if (form === 7) head[1] = maskBit | length;
  else if (form === 16) {
    head[1] = maskBit | 126;
    head.writeUInt16BE(length, 2);
  } else {
    head[1] = maskBit | 127;
    head.writeBigUInt64BE(BigInt(length), 2);
  }
  return Buffer.concat([head, o.mask ? Buffer.alloc(4) : Buffer.alloc(0), body]);
}

const close = (code: number, reason: Buffer | string = '') => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(code);
  return frame(0x8, Buffer.concat([b, Buffer.from(reason)]));
};

type Seen = { kind: string; text?: string; code?: number; reason?: string };

/**
 * Feeds `bytes` in the pieces `cuts` makes, each copied into one scratch buffer that is overwritten
 * after the push (as the client's shared read buffer is), and returns what was read, copied at once.
 */
function read(bytes: Buffer, cuts: number[], maxPayload = 1024): Seen[] {
  const seen: Seen[] = [];
  const reader = new FrameReader(maxPayload, (e: ReadEvent) => {
    if (e.kind === 'message' || e.kind === 'ping') seen.push({ kind: e.kind, text: e.data.toString('latin1') });
    else if (e.kind === 'close' || e.kind === 'fail') seen.push({ kind: e.kind, code: e.code, ...(e.kind === 'close' ? { reason: e.reason } : {}) });
    else seen.push({ kind: e.kind });
  });
  const scratch = Buffer.alloc(bytes.length + 1);
  let from = 0;
  for (const to of [...cuts, bytes.length]) {
    bytes.copy(scratch, 0, from, to);
    reader.push(scratch.subarray(0, to - from));
    scratch.fill(0xee);
    from = to;
  }
  return seen;
}

/** Whole, split at every byte into two, and one byte at a time: each must read the same. */
function readEveryWay(bytes: Buffer, maxPayload?: number): Seen[] {
  const whole = read(bytes, [], maxPayload);
  for (let i = 1; i < bytes.length; i++) expect(read(bytes, [i], maxPayload), `split at ${i}`).toEqual(whole);
  expect(read(bytes, Array.from({ length: bytes.length - 1 }, (_, i) => i + 1), maxPayload), 'byte by byte').toEqual(whole);
  return whole;
}

describe('FrameReader', () => {
  it('reads text, ping, pong and close frames however the bytes are split', () => {
    const bytes = Buffer.concat([frame(0x1, '{"v":1}'), frame(0x9, 'hb'), frame(0xa, ''), frame(0x1, ''), close(1000, 'bye')]);
    expect(readEveryWay(bytes)).toEqual([
      { kind: 'message', text: '{"v":1}' },
      { kind: 'ping', text: 'hb' },
      { kind: 'pong' },
      { kind: 'message', text: '' },
      { kind: 'close', code: 1000, reason: 'bye' },
    ]);
  });

  it('reads the 16-bit and 64-bit length forms', () => {
    const mid = 'm'.repeat(300);
    const big = 'b'.repeat(70_000);
    expect(read(Buffer.concat([frame(0x1, mid), frame(0x2, big)]), [], 100_000).map((s) => s.text?.length)).toEqual([300, 70_000]);
    expect(readEveryWay(Buffer.concat([frame(0x1, mid), frame(0x1, 'x', { form: 64 })]))).toEqual([{ kind: 'message', text: mid }, { kind: 'message', text: 'x' }]);
  });

  it('joins continuation frames into one message, with control frames between them', () => {
    const bytes = Buffer.concat([frame(0x1, 'hel', { fin: false }), frame(0x9, 'p'), frame(0x0, '', { fin: false }), frame(0x0, 'lo')]);
    expect(readEveryWay(bytes)).toEqual([{ kind: 'ping', text: 'p' }, { kind: 'message', text: 'hello' }]);
  });

  it('reports a close frame without a code as 1005', () => {
    expect(readEveryWay(frame(0x8, ''))).toEqual([{ kind: 'close', code: WsCode.NoStatus, reason: '' }]);
  });

  const refusals: Array<[string, Buffer, number]> = [
    ['reserved bit 1', frame(0x1, 'x', { rsv: 4 }), WsCode.ProtocolError],
    ['reserved bit 2', frame(0x1, 'x', { rsv: 2 }), WsCode.ProtocolError],
    ['reserved bit 3', frame(0x1, 'x', { rsv: 1 }), WsCode.ProtocolError],
    ...[3, 4, 5, 6, 7, 0xb, 0xc, 0xd, 0xe, 0xf].map((op): [string, Buffer, number] => [`opcode ${op}`, frame(op, 'x'), WsCode.ProtocolError]),
    ['a masked server frame', frame(0x1, 'x', { mask: true }), WsCode.ProtocolError],
    ['a ping over 125 bytes', frame(0x9, 'p'.repeat(126)), WsCode.ProtocolError],
    ['a close over 125 bytes', frame(0x8, Buffer.concat([Buffer.from([3, 232]), Buffer.alloc(124, 97)])), WsCode.ProtocolError],
    ['a fragmented ping', frame(0x9, 'p', { fin: false }), WsCode.ProtocolError],
    ['a ping in the 16-bit length form', frame(0x9, 'p', { form: 16 }), WsCode.ProtocolError],
    ['a close in the 64-bit length form', frame(0x8, Buffer.from([3, 232]), { form: 64 }), WsCode.ProtocolError],
    ['a continuation with no message begun', frame(0x0, 'x'), WsCode.ProtocolError],
    ['a new message inside a fragmented one', Buffer.concat([frame(0x1, 'a', { fin: false }), frame(0x1, 'b')]), WsCode.ProtocolError],
    ['a message over the limit', frame(0x1, 'x'.repeat(1025)), WsCode.TooBig],
    ['fragments over the limit together', Buffer.concat([frame(0x1, 'x'.repeat(600), { fin: false }), frame(0x0, 'x'.repeat(600))]), WsCode.TooBig],
    ['a 64-bit length with its top bit set', Buffer.from([0x81, 127, 0x80, 0, 0, 0, 0, 0, 0, 1]), WsCode.ProtocolError],
    ['a 64-bit length over 4 GB', Buffer.from([0x81, 127, 0, 0, 0, 1, 0, 0, 0, 0]), WsCode.TooBig],
    ['text that is not UTF-8', frame(0x1, Buffer.from([0x7b, 0xc3, 0x28])), WsCode.InvalidData],
    ['fragmented text that is not UTF-8', Buffer.concat([frame(0x1, Buffer.from([0xe2, 0x82]), { fin: false }), frame(0x0, Buffer.from([0x28]))]), WsCode.InvalidData],
    ['a close frame of one byte', frame(0x8, Buffer.from([3])), WsCode.ProtocolError],
    ['close code 1005', close(1005), WsCode.ProtocolError],
    ['close code 1006', close(1006), WsCode.ProtocolError],
    ['close code 999', close(999), WsCode.ProtocolError],
    ['close code 2000', close(2000), WsCode.ProtocolError],
    ['close code 5000', close(5000), WsCode.ProtocolError],
    ['a close reason that is not UTF-8', close(1000, Buffer.from([0xff])), WsCode.InvalidData],
  ];
  for (const [what, bytes, code] of refusals) {
    it(`fails on ${what} (${code}), however split, and reads nothing after`, () => {
      const seen = readEveryWay(Buffer.concat([bytes, frame(0x1, 'after')]));
      expect(seen.at(-1)).toEqual({ kind: 'fail', code });
      expect(seen.filter((s) => s.kind === 'fail')).toHaveLength(1);
      expect(seen.some((s) => s.text === 'after')).toBe(false);
    });
  }

  it('accepts the codes a peer may send and reads nothing after a close', () => {
    for (const code of [1000, 1001, 1003, 1007, 1011, 1014, 3000, 4002, 4999]) {
      expect(read(Buffer.concat([close(code, 'é'), frame(0x1, 'late')]), [])).toEqual([{ kind: 'close', code, reason: 'é' }]);
    }
  });

  it(`bounds the frames of one message (${MAX_FRAGMENTS}, as ws): empty continuations add no length, but each cost memory`, () => {
    // A server sending empty continuation frames without end grew the fragment list by an object per
    // two bytes, forever: the byte limit never tripped.
    const message = (frames: number) =>
      Buffer.concat([frame(0x1, 'a', { fin: false }), ...Array.from({ length: frames - 2 }, () => frame(0x0, '', { fin: false })), frame(0x0, 'b')]);
    const whole = message(MAX_FRAGMENTS);
    for (const cuts of [[], [1], [whole.length - 1], [MAX_FRAGMENTS]]) {
      expect(read(Buffer.concat([whole, frame(0x1, 'next')]), cuts)).toEqual([{ kind: 'message', text: 'ab' }, { kind: 'message', text: 'next' }]);
    }
    const tooMany = message(MAX_FRAGMENTS + 1);
    for (const cuts of [[], [tooMany.length - 1]]) expect(read(Buffer.concat([tooMany, frame(0x1, 'next')]), cuts)).toEqual([{ kind: 'fail', code: WsCode.PolicyViolation }]);
    const endless = Buffer.concat([frame(0x1, '', { fin: false }), ...Array.from({ length: 3 * MAX_FRAGMENTS }, () => frame(0x0, '', { fin: false }))]);
    expect(read(endless, [])).toEqual([{ kind: 'fail', code: WsCode.PolicyViolation }]);
  });

  it('reads messages whose first or last fragment is empty', () => {
    expect(readEveryWay(Buffer.concat([frame(0x1, '', { fin: false }), frame(0x0, 'x'), frame(0x1, 'y', { fin: false }), frame(0x0, ''), frame(0x2, '', { fin: false }), frame(0x0, '')]))).toEqual([
      { kind: 'message', text: 'x' },
      { kind: 'message', text: 'y' },
      { kind: 'message', text: '' },
    ]);
  });
});
