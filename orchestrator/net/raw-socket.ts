/**
 * The least a transport must offer the orchestrator: write a text frame, close with a code.
 * `ws` sockets, socket.io sockets and the in-process test transport all adapt to this.
 */
export interface RawSocket {
  send(text: string): void;
  close(code: number, reason: string): void;
  /** Optional write batching: frames sent between `cork` and `uncork` leave in one write. */
  cork?(): void;
  uncork?(): void;
  /** The peer's address (for join rate limits and log lines); absent in-process. */
  readonly remoteAddress?: string;
  /** Which transport this is; recorded with the seat's client (a browser seat says `socket.io`). */
  readonly transport?: 'ws' | 'socket.io' | 'memory';
  /** The transport charges every inbound packet to the byte budget itself (`spend`), envelope included. */
  readonly countsBytes?: boolean;
}
