import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { Server as EngineServer } from 'engine.io';
import { Server as IoServer, type Socket } from 'socket.io';
import { CLOSE_EVENT, CloseCode, FRAME_EVENT, MAX_FRAME_BYTES, SOCKET_IO_PATH, type BrowserClose } from '../../protocol/index.js';
import { systemClock } from '../clock.js';
import type { SeatRegistry } from '../seat-registry.js';
import { AgentConnection, type ConnectionOptions } from './agent-connection.js';
import { JoinLimiter } from './join-limiter.js';
import { upgradeRouter } from './upgrade-router.js';

export interface BrowserEndpoint {
  /** Open browser connections. */
  readonly connections: ReadonlySet<AgentConnection>;
  /** Answers plain HTTP requests under `/socket.io/` (engine.io refuses polling: websocket only). */
  handleRequest(req: IncomingMessage, res: ServerResponse): void;
  /** Closes every browser connection (4006) and detaches from the server. */
  close(): void;
}

/**
 * Serves browser seats over socket.io at `/socket.io/`, registered on the server's upgrade router next
 * to `ws`'s `/agent`. Each socket.io socket is adapted onto the same `AgentConnection` as a `ws`
 * socket — one-time tokens, resume secrets, the ledger, frame caps, byte budgets, strikes, heartbeat and
 * error codes are the same code — so the only difference is the envelope (protocol/browser-transport.ts).
 * WebSocket transport only: no long-polling, so every request is an upgrade handled by the router.
 */
export function attachBrowserEndpoint(server: HttpServer, registry: SeatRegistry, opts: ConnectionOptions = {}): BrowserEndpoint {
  const engine = new EngineServer({
    transports: ['websocket'],
    allowUpgrades: false,
    // Bigger than the frame cap so the decoder, not engine.io, refuses oversized frames with an error frame.
    maxHttpBufferSize: 4 * MAX_FRAME_BYTES,
    // No cross-origin pages: the page is served from this same server.
    cors: undefined,
  });
  const io = new IoServer({ path: SOCKET_IO_PATH, serveClient: false });
  io.bind(engine);
  const connections = new Set<AgentConnection>();
  const connectionOpts: ConnectionOptions = { ...opts, joinLimiter: opts.joinLimiter ?? new JoinLimiter(opts.clock ?? systemClock) };

  io.on('connection', (socket: Socket) => {
    let closedByUs = false;
    const conn = new AgentConnection(
      {
        remoteAddress: socket.handshake.address || 'unknown',
        transport: 'socket.io',
        send: (text) => void socket.emit(FRAME_EVENT, text),
        close: (code, reason) => {
          closedByUs = true;
          const close: BrowserClose = { code, reason };
          socket.emit(CLOSE_EVENT, close);
          // Flush the close event before disconnecting: socket.io drops queued packets on disconnect(true).
          setImmediate(() => socket.disconnect(true));
          connections.delete(conn);
          conn.handleClose(code, reason);
        },
      },
      registry,
      connectionOpts,
    );
    connections.add(conn);
    socket.on(FRAME_EVENT, (raw: unknown) => {
      // Anything but a text or binary frame is still handed to the decoder as text, which refuses it.
      const text = typeof raw === 'string' ? raw : Buffer.isBuffer(raw) ? raw : JSON.stringify(raw ?? null);
      try {
        conn.handleMessage(text);
      } catch (err) {
        opts.log?.(`browser frame handling failed: ${(err as Error).message}`);
        conn.close(CloseCode.ProtocolAbuse, 'internal error');
      }
    });
    // Any other event name is a refused frame, counted like a bad frame on `ws`.
    socket.onAny((event: string) => {
      if (event !== FRAME_EVENT) conn.handleMessage(JSON.stringify({ type: `unknown event ${event.slice(0, 40)}` }));
    });
    socket.on('disconnect', (reason) => {
      connections.delete(conn);
      // 1006 (abnormal) like a dropped WebSocket: the seat may rejoin within its grace.
      if (!closedByUs) conn.handleClose(1006, String(reason));
    });
    socket.on('error', (err) => opts.log?.(`browser socket error: ${err.message}`));
  });

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => engine.handleUpgrade(req, socket, head);
  const unroute = upgradeRouter(server).route(SOCKET_IO_PATH, onUpgrade, { prefix: true });
  let closed = false;
  return {
    connections,
    handleRequest: (req, res) => engine.handleRequest(req, res),
    close() {
      if (closed) return;
      closed = true;
      unroute();
      for (const c of connections) c.close(CloseCode.ServerShutdown, 'orchestrator shutting down');
      // Closes the engine and its sockets too (the HTTP server is not the endpoint's to close).
      void io.close();
    },
  };
}
