import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { OriginGuard } from './origin-guard.js';

/** Takes over an upgraded socket (the `ws` endpoint at `/agent`; later socket.io at `/socket.io/`). */
export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

interface Route {
  path: string;
  /** Match `path` and everything under it (socket.io's `/socket.io/?EIO=…`), or exactly `path`. */
  prefix: boolean;
  handler: UpgradeHandler;
}

/**
 * The HTTP server's one `upgrade` listener: every upgrade request is answered. A request for a
 * registered path goes to its handler; anything else (`/x`, `/agent/`, `/AGENT`, an unregistered
 * `/socket.io/`) gets `404` and a destroyed socket — never silence, which would leave the socket
 * half-open and the server unable to close. `route()` is the single place endpoints register.
 */
export class UpgradeRouter {
  private readonly routes: Route[] = [];
  private readonly sockets = new Set<Duplex>();
  private originGuard: { guard: OriginGuard; log?: ((line: string) => void) | undefined } | null = null;

  constructor(server: Server) {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.dispatch(req, socket, head));
  }

  /**
   * Registers the handler of `path` (exact match; `{ prefix: true }` for a path and everything below
   * it). Returns a function that unregisters it. Registration points today: `/agent` (ws-endpoint.ts);
   * the browser seat client will register `/socket.io/` with `{ prefix: true }`.
   */
  route(path: string, handler: UpgradeHandler, opts: { prefix?: boolean } = {}): () => void {
    if (this.routes.some((r) => r.path === path)) throw new Error(`upgrade path ${path} is already registered`);
    const route: Route = { path, prefix: opts.prefix ?? false, handler };
    this.routes.push(route);
    return () => {
      const i = this.routes.indexOf(route);
      if (i >= 0) this.routes.splice(i, 1);
    };
  }

  /** Checks Host and Origin of every upgrade before its route sees it (createHttpServer sets this). */
  guard(guard: OriginGuard, log?: (line: string) => void): void {
    this.originGuard = { guard, log };
  }

  /** Destroys every upgraded socket still open (server shutdown: nothing may keep the process alive). */
  destroyAll(): void {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
  }

  private dispatch(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    // Every socket gets an error listener: a peer resetting mid-handshake must not crash the server.
    socket.on('error', () => socket.destroy());
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    const path = (req.url ?? '').split('?')[0] ?? '';
    const route = this.routes.find((r) => (r.prefix ? path === r.path || path.startsWith(r.path) : path === r.path));
    if (!route) return refuse(socket, 404, 'Not Found');
    const refusal = this.originGuard?.guard.refusal(req);
    if (refusal) {
      this.originGuard?.log?.(`refused an upgrade from ${req.socket.remoteAddress ?? 'unknown'}: ${refusal}`);
      return refuse(socket, 403, 'Forbidden');
    }
    try {
      route.handler(req, socket, head);
    } catch {
      refuse(socket, 500, 'Internal Server Error');
    }
  }
}

/** Answers an upgrade with a plain HTTP error and destroys the socket once written. */
function refuse(socket: Duplex, status: number, text: string): void {
  if (socket.destroyed) return;
  const body = `${text.toLowerCase()}\n`;
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
  // end() flushes then closes our side; destroy() after a short flush window makes sure no handle is kept.
  const timer = setTimeout(() => socket.destroy(), 1000);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}

const routers = new WeakMap<Server, UpgradeRouter>();

/** The server's upgrade router (created with the server by `createHttpServer`). */
export function upgradeRouter(server: Server): UpgradeRouter {
  let r = routers.get(server);
  if (!r) {
    r = new UpgradeRouter(server);
    routers.set(server, r);
  }
  return r;
}
