import {
  CloseCode,
  ErrorCode,
  errorFrame,
  frameIds,
  stamp,
  type OrchestratorFrame,
  type OrchestratorFrameBody,
  type SeatEndScore,
  type SeatJoin,
} from '../protocol/index.js';
import type { EpisodeFrame, InboxEvent } from './inbox.js';
import type { Ledger } from './ledger.js';
import type { SeatLifecycle, SeatPhase } from './seat-lifecycle.js';

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

/** Frames that make up what a seat knows; replayed, as sent, to a process that takes the seat over. */
const KNOWLEDGE = new Set<string>(['seat.welcome', 'peer.state', 'turn.event', 'game.notice', 'script.request']);

export interface SeatLinkOptions {
  episodeId: string;
  seat: string;
  ledger: Ledger;
  /** The seat's lifecycle (the registry makes it): the one owner of joined/down/lost/ended. */
  lifecycle: SeatLifecycle;
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
 * still holds every frame each process received. The one difference: the replayed welcome carries the
 * seat's new resume secret (rotated on every rejoin).
 *
 * Frames that cannot be acted on now — a move when no `turn.request` is outstanding (game not started,
 * not the seat's turn), a move for another turn, a script nobody asked for — are refused here at once
 * with a code, never queued for the engine.
 */
export class SeatLink {
  readonly episodeId: string;
  readonly seat: string;
  /** Resolves with the client's self-description at its first join. */
  readonly joined: Promise<SeatJoin['client']>;
  private resolveJoined!: (c: SeatJoin['client']) => void;
  readonly lifecycle: SeatLifecycle;
  private conn: SeatConnection | null = null;
  /** What the seat was asked for and has not yet been answered for: a turn, the script, or nothing. */
  private outstanding: number | 'script' | null = null;
  private _client: SeatJoin['client'] | null = null;
  private readonly _pids: number[] = [];
  /** Serialised knowledge frames in sending order (see KNOWLEDGE), delivered or not. */
  private readonly knowledge: string[] = [];
  /** The welcome as first stamped (its replay gets the current resume secret). */
  private welcome: OrchestratorFrame | null = null;
  private readonly nextId = frameIds('o');
  /** The connection corked by `hold`, until `flush`. */
  private held: SeatConnection | null = null;
  private ledgered = 0;

  constructor(private readonly opts: SeatLinkOptions) {
    this.episodeId = opts.episodeId;
    this.seat = opts.seat;
    this.lifecycle = opts.lifecycle;
    this.joined = new Promise((r) => (this.resolveJoined = r));
  }

  /** Where the seat is in its life (asks the lifecycle). */
  get state(): SeatPhase {
    return this.lifecycle.phase;
  }

  /** Client info of the latest join (null before the first). */
  get client(): SeatJoin['client'] | null {
    return this._client;
  }

  get connected(): boolean {
    return this.lifecycle.connected;
  }

  /** Pids of every process that joined this seat, in order (one unless it was recovered). */
  get pids(): readonly number[] {
    return this._pids;
  }

  /**
   * A connection claimed this seat (the lifecycle accepted its token or resume secret, issuing `secret`):
   * send what the seat knows at the start, the welcome carrying the secret.
   */
  attach(conn: SeatConnection, secret: string): void {
    if (this.lifecycle.over) throw new Error(`seat ${this.seat} of ${this.episodeId} is over`);
    const previous = this.conn;
    this.conn = conn;
    const first = this._client === null;
    this._client = conn.client;
    if (conn.client.pid !== undefined && this._pids.at(-1) !== conn.client.pid) this._pids.push(conn.client.pid);
    if (previous && previous !== conn) previous.close(CloseCode.Replaced, 'seat taken over by a reconnect');
    if (first) {
      for (const body of this.opts.initialFrames) this.send(body.type === 'seat.welcome' ? { ...body, resume: secret } : body);
    } else {
      this.knowledge.forEach((text, i) => {
        if (i === 0 && this.welcome) this.write(conn, JSON.stringify({ ...this.welcome, resume: secret }), this.withheld(this.welcome));
        else this.write(conn, text);
      });
    }
    if (first) this.resolveJoined(conn.client);
    else this.opts.onEvent({ kind: 'rejoined', seat: this.seat });
  }

  /** The connection closed. Ignored if it no longer holds the seat. */
  detach(conn: SeatConnection, code: number, reason: string): void {
    if (conn !== this.conn) return;
    this.conn = null;
    if (this.lifecycle.phase === 'ended') return;
    this.lifecycle.down(code, reason);
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
    if (conn !== this.conn || this.lifecycle.over) return;
    const refusal = this.refusalFor(frame);
    if (refusal) return this.reject(refusal.code, refusal.message, frame.id);
    this.opts.onEvent(receivedAt === undefined ? { kind: 'frame', seat: this.seat, frame } : { kind: 'frame', seat: this.seat, frame, receivedAt });
  }

  /** Why a frame cannot be acted on now (null: hand it to the engine, which checks the rest). */
  private refusalFor(frame: EpisodeFrame): { code: ErrorCode; message: string } | null {
    const o = this.outstanding;
    if (frame.type === 'script.submit' || frame.type === 'script.fail') {
      return o === 'script' ? null : { code: ErrorCode.UnexpectedFrame, message: `${frame.type} was not asked for` };
    }
    if (o === null) {
      return this.lifecycle.playing
        ? { code: ErrorCode.NotYourTurn, message: 'no turn is waiting for this seat' }
        : { code: ErrorCode.NotStarted, message: 'the episode has not started: nothing can be acted on yet' };
    }
    if (o === 'script') return { code: ErrorCode.UnexpectedFrame, message: `${frame.type} is not expected from the script writer` };
    if (frame.turn > o) return { code: ErrorCode.NotYourTurn, message: `turn ${frame.turn} is not this seat's turn (asked for ${o})` };
    if (frame.turn < o) return { code: ErrorCode.StaleTurn, message: `turn ${frame.turn} is not the turn ${o} this seat was asked for` };
    return null;
  }

  /**
   * Sends a frame to the seat's process and ledgers it. A frame is ledgered only when it is actually
   * written to a connection: the ledger is what the process received, not what it missed.
   */
  send(body: OrchestratorFrameBody): OrchestratorFrame | null {
    const conn = this.conn;
    const knowledge = KNOWLEDGE.has(body.type);
    if (!conn && !knowledge) return null;
    if (body.type === 'turn.request') this.outstanding = body.turn;
    else if (body.type === 'script.request') this.outstanding = 'script';
    else if (body.type === 'turn.event' && body.turn === this.outstanding) this.outstanding = null;
    const frame = stamp<OrchestratorFrame>(body, this.nextId());
    const text = JSON.stringify(frame);
    this.opts.guard?.(frame.type, text);
    if (frame.type === 'seat.welcome' && !this.welcome) this.welcome = frame;
    // Kept even when the seat is away: it is part of what a rejoining process must be told.
    if (knowledge && this.lifecycle.phase !== 'ended') this.knowledge.push(text);
    if (!conn) return null;
    this.write(conn, text, frame.type === 'seat.welcome' && frame.resume !== undefined ? this.withheld(frame) : text);
    return frame;
  }

  /** Welcomes ledgered so far (each carried a fresh resume secret). */
  private welcomesLedgered = 0;

  /**
   * A welcome as its ledger line: the resume secret is a credential (whoever holds it takes the seat over),
   * and ledgers are read by watchers and shared with run directories, so the line says which issued secret
   * this was (`withheld1`, `withheld2`, … per rejoin) instead of the secret itself.
   */
  private withheld(welcome: OrchestratorFrame): string {
    return JSON.stringify({ ...welcome, resume: `withheld${++this.welcomesLedgered}` });
  }

  /** Lines appended to the seat's ledger so far (a fork records where its live part begins). */
  get ledgerLines(): number {
    return this.ledgered;
  }

  private write(conn: SeatConnection, text: string, ledgered = text): void {
    this.opts.ledger.append(ledgered);
    this.ledgered++;
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
    this.send(errorFrame(code, message, re));
    this.lifecycle.note('refused', code, message);
    this.conn?.strike();
  }

  /**
   * The episode is over: `episode.end` (with this seat's own score, if any), then a normal close. Later
   * frames from the seat are dropped.
   */
  end(reason: string, score?: SeatEndScore): void {
    if (this.lifecycle.phase === 'ended') return;
    this.send({ type: 'episode.end', reason, ...(score ? { score } : {}) });
    const conn = this.conn;
    this.outstanding = null;
    this.lifecycle.end();
    this.conn = null;
    conn?.close(CloseCode.EpisodeEnded, 'episode ended');
  }

  /** Closes the ledger (after `end`). */
  closeLedger(): Promise<void> {
    return this.opts.ledger.close();
  }
}
