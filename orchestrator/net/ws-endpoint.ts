import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { CloseCode, MAX_FRAME_BYTES } from '../../protocol/index.js';
import { systemClock } from '../clock.js';
import type { SeatRegistry } from '../seat-registry.js';
import { AgentConnection, type ConnectionOptions } from './agent-connection.js';
import { JoinLimiter } from './join-limiter.js';
import { upgradeRouter } from './upgrade-router.js';

/** Path of the agent endpoint. */
export const AGENT_PATH = '/agent';

/**
 * Frames up to this size reach the decoder, which refuses those over MAX_FRAME_BYTES with an `error`
 * frame; only absurd sizes are cut by `ws` itself (close 1009) to bound memory.
 */
const WS_MAX_PAYLOAD = 4 * MAX_FRAME_BYTES;

export interface AgentEndpoint {
  /** Open agent connections. */
  readonly connections: ReadonlySet<AgentConnection>;
  /** Closes every agent connection (4006) and detaches from the server. */
  close(): void;
}

/**
 * Serves agent processes over `ws` at `/agent` on an existing HTTP server, registered on the server's
 * upgrade router (which answers every other path with 404). Joins are rate-limited per address.
 */
export function attachAgentEndpoint(server: Server, registry: SeatRegistry, opts: ConnectionOptions = {}): AgentEndpoint {
  const wss = new WebSocketServer({ noServer: true, maxPayload: WS_MAX_PAYLOAD });
  const connections = new Set<AgentConnection>();
  const connectionOpts: ConnectionOptions = { ...opts, joinLimiter: opts.joinLimiter ?? new JoinLimiter(opts.clock ?? systemClock) };

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    wss.handleUpgrade(req, socket, head, (ws) => accept(ws, req.socket.remoteAddress ?? 'unknown'));
  };

  const accept = (ws: WebSocket, remoteAddress: string) => {
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

function toBuffers(data: Buffer | ArrayBuffer | Buffer[]): Buffer[] {
  if (Array.isArray(data)) return data;
  return [Buffer.isBuffer(data) ? data : Buffer.from(data)];
}
