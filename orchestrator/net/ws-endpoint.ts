import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { CloseCode, MAX_FRAME_BYTES } from '../../protocol/index.js';
import { systemClock } from '../clock.js';
import type { SeatRegistry } from '../seat-registry.js';
import { AgentConnection, type ConnectionOptions } from './agent-connection.js';
import { JoinLimiter } from './join-limiter.js';
import { PendingConnections, type PendingLimits } from './pending-connections.js';
import { upgradeRouter } from './upgrade-router.js';

/** Path of the agent endpoint. */
export const AGENT_PATH = '/agent';

/**
 * Frames up to this size reach the decoder, which refuses those over MAX_FRAME_BYTES with an `error`
 * frame; only absurd sizes are cut by `ws` itself (close 1009) to bound memory.
 */
const WS_MAX_PAYLOAD = 4 * MAX_FRAME_BYTES;

/**
 * Agent connections that have not joined a seat yet (issue 19, k02). Agent processes dial in from their
 * machine's one address, in bursts: a local pool at --concurrency 150 (multiplexed, three seats each) had
 * 64 connections pending at once from 127.0.0.1, each for the milliseconds between its upgrade and its
 * `seat.join`. 256 per address leaves room for pools four times that size; 512 in all bounds what
 * tokenless clients can hold (memory and descriptors) until their join timeout. Over a limit the oldest
 * pending connection is closed with 4009 (pending-connections.ts `admitEvicting`), so a bigger burst costs
 * an agent a join again that does not count against its reconnects (seat-client/state.ts BUSY_RETRIES),
 * never its seat, and a flood cannot lock out the agents that share its address. The mux1000 bench (2,000
 * seats joining at once, 50 a process, on 2 cores) goes past 256: its ~2,000 "connection lost (close
 * 1006)" lines were these closes, and a seat closed so three times before its welcome failed (the
 * likely cause of its one failed episode of 3,000).
 */
export const AGENT_PENDING_LIMITS: PendingLimits = { perAddress: 256, total: 512 };

export interface AgentEndpoint {
  /** Open agent connections. */
  readonly connections: ReadonlySet<AgentConnection>;
  /** Connections that hold no seat yet (bounded by `AGENT_PENDING_LIMITS`). */
  readonly pending: number;
  /** Closes every agent connection (4006) and detaches from the server. */
  close(): void;
}

/**
 * Serves agent processes over `ws` at `/agent` on an existing HTTP server, registered on the server's
 * upgrade router (which answers every other path with 404). Joins are rate-limited per address.
 */
export function attachAgentEndpoint(server: Server, registry: SeatRegistry, opts: ConnectionOptions & { pendingLimits?: PendingLimits } = {}): AgentEndpoint {
  const wss = new WebSocketServer({ noServer: true, maxPayload: WS_MAX_PAYLOAD });
  const connections = new Set<AgentConnection>();
  const clock = opts.clock ?? systemClock;
  const connectionOpts: ConnectionOptions = { ...opts, joinLimiter: opts.joinLimiter ?? new JoinLimiter(clock) };
  const pending = new PendingConnections<Duplex>(opts.pendingLimits ?? AGENT_PENDING_LIMITS);
  const upgraded = new WeakMap<Duplex, WebSocket>();

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const address = req.socket.remoteAddress ?? 'unknown';
    // Counted from the upgrade until the connection joins or goes; a full endpoint gives up its oldest.
    const evicted = pending.admitEvicting(socket, address);
    for (const old of evicted) closeBusy(old, upgraded.get(old));
    const report = evicted.length ? pending.takeRefusalReport(clock.now()) : null;
    if (report !== null) opts.log?.(`closed ${report} agent connection(s) that had not joined a seat, to make room (the latest newcomer from ${address})`);
    socket.once('close', () => pending.release(socket));
    wss.handleUpgrade(req, socket, head, (ws) => {
      upgraded.set(socket, ws);
      accept(ws, address, socket);
    });
  };

  const accept = (ws: WebSocket, remoteAddress: string, socket: Duplex) => {
    const conn = new AgentConnection(
      {
        remoteAddress,
        transport: 'ws',
        send: (text) => ws.send(text),
        close: (code, reason) => ws.close(code, reason),
        // The underlying net.Socket (ws keeps it as `_socket`): corked, several frames go out in one write.
        cork: () => (ws as unknown as { _socket?: { cork(): void } })._socket?.cork(),
        uncork: () => (ws as unknown as { _socket?: { uncork(): void } })._socket?.uncork(),
      },
      registry,
      connectionOpts,
    );
    connections.add(conn);
    ws.on('message', (data, isBinary) => {
      const raw = Buffer.concat(toBuffers(data));
      try {
        conn.handleMessage(isBinary ? raw : raw.toString('utf8'));
        if (conn.seat) pending.release(socket);
      } catch (err) {
        // One client's frame must never take the orchestrator down.
        opts.log?.(`agent frame handling failed: ${(err as Error).message}`);
        conn.close(CloseCode.ProtocolAbuse, 'internal error');
      }
    });
    ws.on('close', (code, reason) => {
      connections.delete(conn);
      conn.handleClose(code, reason.toString());
    });
    // Every socket has an error listener: a broken peer must never crash the orchestrator.
    ws.on('error', (err) => opts.log?.(`agent socket error: ${err.message}`));
  };

  const unroute = upgradeRouter(server).route(AGENT_PATH, onUpgrade);
  let closed = false;
  return {
    connections,
    get pending() {
      return pending.size;
    },
    close() {
      if (closed) return;
      closed = true;
      unroute();
      for (const c of connections) c.close(CloseCode.ServerShutdown, 'orchestrator shutting down');
      for (const ws of wss.clients) ws.terminate();
      wss.close();
    },
  };
}

/**
 * A connection given up to make room is told so with a close frame (4009), not cut (which its client saw
 * as a lost connection, 1006, and counted against its few reconnects before a welcome: under a burst of
 * joins a seat could lose three times in a row and its episode fail). Not waited on: a peer that never
 * answers the close is cut a second later, so a flood still holds nothing for long.
 */
function closeBusy(socket: Duplex, ws: WebSocket | undefined): void {
  if (!ws) return void socket.destroy();
  // Its seat.join may already be on the way: read after the close it would spend the seat's token, and
  // the client's join again would be refused (token_spent). A connection given up reads nothing more.
  ws.removeAllListeners('message');
  ws.close(CloseCode.Busy, 'too many connections waiting to join: join again');
  setTimeout(() => socket.destroy(), 1000).unref();
}

function toBuffers(data: Buffer | ArrayBuffer | Buffer[]): Buffer[] {
  if (Array.isArray(data)) return data;
  return [Buffer.isBuffer(data) ? data : Buffer.from(data)];
}
