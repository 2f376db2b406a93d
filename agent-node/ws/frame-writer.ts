import { randomFillSync } from 'node:crypto';

export const WsOp = { Text: 0x1, Close: 0x8, Ping: 0x9, Pong: 0xa } as const;

/**
 * Random masks, drawn from the system's generator 1,024 at a time: a client masks every frame with a
 * fresh unpredictable key (RFC 6455 §5.3), and one `randomFillSync` a frame would cost a system call each.
 * The pool belongs to the process that filled it: agent processes start from one start-up snapshot
 * (agent-node/snapshot-entry.ts), and a pool filled while it was built would give them all the same masks.
 */
const maskPool = Buffer.alloc(4096);
let maskAt = maskPool.length;
let maskPid = 0;

/**
 * Empties the pool (the start-up snapshot's seat rehearsal calls it after its frames, agent-node/snapshot-entry.ts):
 * the masks drawn while the blob was built must not reach it, even for a process that happens to get the
 * builder's pid.
 */
export function forgetMasks(): void {
  maskPool.fill(0);
  maskAt = maskPool.length;
  maskPid = 0;
}

/** Whether the pool holds masks drawn in this process (tests). */
export function holdsMasks(): boolean {
  return maskPid !== 0;
}

function nextMask(into: Uint8Array, offset: number): void {
  if (maskAt === maskPool.length || maskPid !== process.pid) {
    randomFillSync(maskPool);
    maskAt = 0;
    maskPid = process.pid;
  }
  into[offset] = maskPool[maskAt]!;
  into[offset + 1] = maskPool[maskAt + 1]!;
  into[offset + 2] = maskPool[maskAt + 2]!;
  into[offset + 3] = maskPool[maskAt + 3]!;
  maskAt += 4;
}

/**
 * One masked client frame (FIN set, never fragmented), header and payload in one buffer so that it goes
 * out in one write. The payload is laid out at an offset divisible by 4 in its own memory, so masking
 * XORs 32-bit words: a frame's bytes one at a time cost ~20 ns each in the interpreter tier that model-seat
 * processes run (agent-node/v8-tiering.ts), the largest part of ws's send path in the profile.
 */
export function clientFrame(opcode: number, payload: string | Buffer): Buffer {
  const length = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
  const headLength = length < 126 ? 2 : length < 0x10000 ? 4 : 10;
  // Header, then the 4-byte mask, then the payload; `pad` puts the mask (and so the payload) on a word.
  const pad = (4 - ((headLength + 4) % 4)) % 4;
  const memory = new ArrayBuffer(pad + headLength + 4 + length);
  const frame = Buffer.from(memory, pad);
  frame[0] = 0x80 | opcode;
  if (headLength === 2) frame[1] = 0x80 | length;
  else if (headLength === 4) {
    frame[1] = 0x80 | 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 0x80 | 127;
    frame.writeUInt32BE(0, 2);
    frame.writeUInt32BE(length, 6);
  }
  const maskAtByte = headLength;
  nextMask(frame, maskAtByte);
  const start = headLength + 4;
  if (typeof payload === 'string') frame.write(payload, start, 'utf8');
  else payload.copy(frame, start);
  maskInPlace(memory, pad + maskAtByte, length);
  return frame;
}

/** XORs `length` bytes after the word-aligned mask at `maskOffset` of `memory` with that mask. */
function maskInPlace(memory: ArrayBuffer, maskOffset: number, length: number): void {
  const words = new Uint32Array(memory, maskOffset, 1 + (length >>> 2));
  const mask = words[0]!;
  for (let i = 1; i < words.length; i++) words[i]! ^= mask;
  const bytes = new Uint8Array(memory, maskOffset);
  for (let i = length & ~3; i < length; i++) bytes[4 + i]! ^= bytes[i & 3]!;
}
