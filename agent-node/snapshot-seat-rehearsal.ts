import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import type { Policy } from './policy.js';
import { playSeat, type SeatOutcome } from './seat-client.js';
import type { InMemoryDial } from './ws/ws-client.js';
import { forgetMasks } from './ws/frame-writer.js';

/**
 * One seat played whole over the agent's own WebSocket client (agent-node/ws/) against a made-up orchestrator
 * in memory, while the start-up snapshot is built (snapshot-turn-rehearsal.ts calls it).
 *
 * Why: after the turn rehearsal, a process's first join still compiled 12–16 M instructions (~5 ms of CPU)
 * in every agent process (bench/start-up.md): the seat client's connect, the opening handshake and the 101's
 * check, the frame writer's masking, the frame reader, `seat.join`, the seat's state machine, the reply and
 * the closing handshake. At one seat a process the latency case starts ~100 processes during the pool's ramp.
 * The snapshot keeps the bytecode of every function called while it is built. Only the socket is in memory
 * (WsClient's `dial` option); no network, file or environment is read, and the masks drawn are forgotten.
 */
export const ACCEPT_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
export const OP_TEXT = 0x1;
export const OP_CLOSE = 0x8;

/** A server frame (unmasked, whole). */
export function serverFrame(opcode: number, payload: Buffer): Buffer {
  const n = payload.length;
  const head = n < 126 ? Buffer.from([0x80 | opcode, n]) : Buffer.from([0x80 | opcode, 126, n >> 8, n & 0xff]);
  return Buffer.concat([head, payload]);
}

/** A client frame's opcode and unmasked payload (one whole frame a write, as the client writes them). */
function readClientFrame(frame: Buffer): { opcode: number; payload: Buffer } {
  let at = 2;
  let length = frame[1]! & 0x7f;
  if (length === 126) {
    length = frame.readUInt16BE(2);
    at = 4;
  }
  const mask = frame.subarray(at, at + 4);
  const payload = Buffer.from(frame.subarray(at + 4, at + 4 + length));
  for (let i = 0; i < payload.length; i++) payload[i]! ^= mask[i & 3]!;
  return { opcode: frame[0]! & 0x0f, payload };
}

/**
 * The orchestrator's side of one seat's connection: the 101, then on `seat.join` the welcome (split in two
 * reads, as a large frame may come), a heartbeat, two events and a turn request; on `turn.act` the episode's
 * end; on the client's close frame its answer, then the socket closes.
 */
export function inMemoryOrchestrator(welcome: object, frames: { events: object[]; request: object; end: object }): { dial: InMemoryDial; moves: () => number } {
  let moves = 0;
  const dial: InMemoryDial = (_url, onConnect, onBytes) => {
    const socket = new EventEmitter() as EventEmitter & Record<string, unknown>;
    let closed = false;
    const deliver = (bytes: Buffer) => setImmediate(() => closed || onBytes(bytes));
    const text = (frame: object) => serverFrame(OP_TEXT, Buffer.from(JSON.stringify(frame)));
    const close = () => {
      if (closed) return;
      closed = true;
      socket.destroyed = true;
      setImmediate(() => socket.emit('close', false));
    };
    Object.assign(socket, {
      destroyed: false,
      writableLength: 0,
      pause() {},
      resume() {},
      end: close,
      destroy: close,
      write(data: string | Buffer): boolean {
        if (typeof data === 'string') {
          const key = /Sec-WebSocket-Key: (\S+)/.exec(data)?.[1] ?? '';
          const accept = createHash('sha1').update(key + ACCEPT_GUID).digest('base64');
          deliver(Buffer.from(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`, 'latin1'));
          return true;
        }
        const { opcode, payload } = readClientFrame(data);
        if (opcode === OP_CLOSE) {
          deliver(serverFrame(OP_CLOSE, payload.subarray(0, 2)));
          setImmediate(close);
          return true;
        }
        const type = (JSON.parse(payload.toString('utf8')) as { type?: string }).type;
        if (type === 'seat.join') {
          const first = text(welcome);
          const half = first.length >> 1;
          deliver(first.subarray(0, half));
          deliver(first.subarray(half));
          deliver(Buffer.concat([text({ v: 1, id: 'h', type: 'ping', nonce: 'n' }), ...frames.events.map(text), text(frames.request)]));
        } else if (type === 'turn.act') {
          moves += 1;
          deliver(text(frames.end));
        }
        return true;
      },
    });
    queueMicrotask(onConnect);
    return socket as unknown as Socket;
  };
  return { dial, moves: () => moves };
}

/** Plays one seat with `policy` against the in-memory orchestrator; resolves to its outcome and moves sent. */
export async function rehearseSeatConnection(policy: Policy, welcome: object, frames: { events: object[]; request: object; end: object }): Promise<{ outcome: SeatOutcome; moves: number }> {
  const orchestrator = inMemoryOrchestrator(welcome, frames);
  try {
    const session = playSeat({ url: 'ws://rehearsal.invalid/agent', token: 'rehearsal-token', policy, pid: 0, host: 'rehearsal', dial: orchestrator.dial, reconnect: { attempts: 0, initialAttempts: 0 } });
    return { outcome: await session.done, moves: orchestrator.moves() };
  } finally {
    forgetMasks();
  }
}
