import {
  CloseCode,
  frameIds,
  stamp,
  type ErrorCode,
  type OrchestratorFrame,
  type OrchestratorFrameBody,
  type SeatJoin,
} from '../protocol/index.js';
import type { EpisodeFrame, InboxEvent } from './inbox.js';
import type { Ledger } from './ledger.js';

/** The connection side a link needs: a transport-neutral socket that has passed `seat.join`. */
export interface SeatConnection {
  /** What the client reported at join (its pid is recorded for the isolation audit). */
  readonly client: SeatJoin['client'];
  sendText(text: string): void;
  close(code: number, reason: string): void;
  /** Counts a refused frame toward the connection's abuse limit (4001 when exceeded). */
  strike(): void;
  /** Optional write batching (see `SeatLink.hold`). */
  cork?(): void;
  uncork?(): void;
}

export type SeatLinkState = 'reserved' | 'connected' | 'disconnected' | 'ended';

/** Frames that make up what a seat knows; replayed, as sent, to a process that takes the seat over. */
const KNOWLEDGE = new Set<string>(['seat.welcome', 'peer.state', 'turn.event', 'script.request']);

export interface SeatLinkOptions {
  episodeId: string;
  seat: string;
  ledger: Ledger;
  /** Frames sent on every (re)join, from `observe()`. */
  initialFrames: OrchestratorFrameBody[];
  /** Throws before a frame carrying judge-only text would leave (see judge-guard.ts). */
  guard?: (frameType: string, serialised: string) => void;
  /** Where the seat's inbound frames and connection changes go (the episode's inbox). */
  onEvent: (event: InboxEvent) => void;
}

/**
 * One reserved seat of one episode, independent of any socket: the engine talks to the link, and the
 * link talks to whichever connection currently holds the seat (a reconnect swaps it underneath).
 * Every frame sent is stamped, serialised once, appended to the seat's ledger and written as is.
 *
 * Rejoin (a reconnect, or a fresh process replacing one that died): the seat's knowledge — the welcome,
 * `peer.state`, every `turn.event` so far (also those sent while it was away), or the `script.request` —
 * is replayed byte for byte as first stamped, in order, and ledgered again; the engine then resends the
 * pending `turn.request`. So a replacement process sees the frames its predecessor saw, and the ledger
 * still holds every frame each process received.
 */
export class SeatLink {
  readonly episodeId: string;
  readonly seat: string;
  /** Resolves with the client's self-description at its first join. */
  readonly joined: Promise<SeatJoin['client']>;
  private resolveJoined!: (c: SeatJoin['client']) => void;
  private conn: SeatConnection | null = null;
  private _state: SeatLinkState = 'reserved';
  private _client: SeatJoin['client'] | null = null;
  private readonly _pids: number[] = [];
  /** Serialised knowledge frames in sending order (see KNOWLEDGE), delivered or not. */
  private readonly knowledge: string[] = [];
  private readonly nextId = frameIds('o');
  /** The connection corked by `hold`, until `flush`. */
  private held: SeatConnection | null = null;

  constructor(private readonly opts: SeatLinkOptions) {
    this.episodeId = opts.episodeId;
    this.seat = opts.seat;
    this.joined = new Promise((r) => (this.resolveJoined = r));
  }

  get state(): SeatLinkState {
    return this._state;
  }

  /** Client info of the latest join (null before the first). */
  get client(): SeatJoin['client'] | null {
    return this._client;
  }

  get connected(): boolean {
    return this._state === 'connected';
  }

  /** Pids of every process that joined this seat, in order (one unless it was recovered). */
  get pids(): readonly number[] {
    return this._pids;
  }

  /** A connection claimed this seat (first join or reconnect): send what the seat knows at the start. */
  attach(conn: SeatConnection): void {
    if (this._state === 'ended') throw new Error(`seat ${this.seat} of ${this.episodeId} has ended`);
    const previous = this.conn;
    this.conn = conn;
    const first = this._client === null;
    this._client = conn.client;
    if (this._pids.at(-1) !== conn.client.pid) this._pids.push(conn.client.pid);
    this._state = 'connected';
    if (previous && previous !== conn) previous.close(CloseCode.Replaced, 'seat taken over by a reconnect');
    if (first) {
      for (const body of this.opts.initialFrames) this.send(body);
    } else {
      for (const text of this.knowledge) this.write(conn, text);
    }
    if (first) this.resolveJoined(conn.client);
    else this.opts.onEvent({ kind: 'rejoined', seat: this.seat });
  }

  /** The connection closed. Ignored if it no longer holds the seat. */
  detach(conn: SeatConnection, code: number, reason: string): void {
    if (conn !== this.conn) return;
    this.conn = null;
    if (this._state === 'ended') return;
    this._state = 'disconnected';
    this.opts.onEvent({ kind: 'closed', seat: this.seat, code, reason });
  }

  /**
   * Closes the seat's current connection from this side (its process is known to be gone, or hung), so
   * that a replacement can rejoin at once instead of waiting for the socket to time out.
   */
  drop(reason: string): void {
    this.conn?.close(CloseCode.Replaced, reason);
  }

  /** An inbound frame from the seat's current connection, for the engine. */
  deliver(conn: SeatConnection, frame: EpisodeFrame, receivedAt?: bigint): void {
    if (conn !== this.conn || this._state === 'ended') return;
    this.opts.onEvent(receivedAt === undefined ? { kind: 'frame', seat: this.seat, frame } : { kind: 'frame', seat: this.seat, frame, receivedAt });
  }

  /**
   * Sends a frame to the seat's process and ledgers it. A frame is ledgered only when it is actually
   * written to a connection: the ledger is what the process received, not what it missed.
   */
  send(body: OrchestratorFrameBody): OrchestratorFrame | null {
    const conn = this.conn;
    const knowledge = KNOWLEDGE.has(body.type);
    if (!conn && !knowledge) return null;
    const frame = stamp<OrchestratorFrame>(body, this.nextId());
    const text = JSON.stringify(frame);
    this.opts.guard?.(frame.type, text);
    // Kept even when the seat is away: it is part of what a rejoining process must be told.
    if (knowledge && this._state !== 'ended') this.knowledge.push(text);
    if (!conn) return null;
    this.write(conn, text);
    return frame;
  }

  private write(conn: SeatConnection, text: string): void {
    this.opts.ledger.append(text);
    conn.sendText(text);
  }

  /**
   * Batches the frames sent until `flush` into one socket write (the engine holds every seat while it
   * broadcasts a move and asks the next seat, so the event and the request leave together).
   */
  hold(): void {
    if (this.held || !this.conn?.cork) return;
    this.held = this.conn;
    this.held.cork!();
  }

  /** Writes what `hold` batched. */
  flush(): void {
    const held = this.held;
    this.held = null;
    held?.uncork?.();
  }

  /** Sends on behalf of a connection (its error and ping frames) only while it holds the seat. */
  sendFrom(conn: SeatConnection, body: OrchestratorFrameBody): void {
    if (conn === this.conn) this.send(body);
  }

  /** Refuses a frame: an `error` frame back to the seat, and a strike on its connection. */
  reject(code: ErrorCode, message: string, re?: string): void {
    this.send(re === undefined ? { type: 'error', code, message } : { type: 'error', code, message, re });
    this.conn?.strike();
  }

  /** The episode is over: `episode.end`, then a normal close. Later frames from the seat are dropped. */
  end(reason: string): void {
    if (this._state === 'ended') return;
    this.send({ type: 'episode.end', reason });
    const conn = this.conn;
    this._state = 'ended';
    this.conn = null;
    conn?.close(CloseCode.EpisodeEnded, 'episode ended');
  }

  /** Closes the ledger (after `end`). */
  closeLedger(): Promise<void> {
    return this.opts.ledger.close();
  }
}
