import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { ConnectionCap, connectionLimits, type ConnectionLimits } from './connection-cap.js';
import { OriginGuard } from './origin-guard.js';
import { upgradeRouter } from './upgrade-router.js';

/** Handles plain HTTP requests (not upgrades). */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * How long an idle keep-alive connection stays open (Node's default is 5 s). A client that reuses an idle
 * connection just as the server closes it gets a reset: undici closes its own side 2 s before the
 * advertised `Keep-Alive: timeout=5`, a margin a busy client's event loop outlasts (study-hostile under
 * load), and a reverse proxy in front of `--trust-proxy` pools connections for 60 s (nginx upstream
 * `keepalive_timeout`, AWS ALB) or longer and never reads the hint. Above those, the proxy or client
 * closes first. Idle sockets cost a file descriptor each; closeServer closes them all.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** Plain requests nobody serves get 404. */
const notFound: RequestHandler = (_req, res) => {
  res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
};

export interface HttpServerOptions {
  allowOrigins?: readonly string[];
  host?: string;
  log?: (line: string) => void;
  /** Behind a trusted reverse proxy (`--trust-proxy`): every connection is the proxy's, so no cap per address. */
  trustProxy?: boolean;
  /** The connection caps (connection-cap.ts); default: connectionLimits() from the environment. */
  limits?: ConnectionLimits;
}

/**
 * The orchestrator's one HTTP server. It owns an upgrade router (upgrade-router.ts) that answers every
 * upgrade: endpoints register their path there (the agent WebSocket endpoint `/agent`, socket.io's
 * `/socket.io/` for browsers), anything else gets 404 and a destroyed socket. Plain requests go to
 * `onRequest` (the web pages for people: net/web-routes.ts), else 404. Its plain HTTP connections are
 * capped, in all and per address (connection-cap.ts): idle keep-alive ones are kept 65 s, unfinished
 * requests ~60 s (Node's headersTimeout), and a client must not hold as many as it likes.
 */
export function createHttpServer(onRequest: RequestHandler = notFound, opts: HttpServerOptions = {}): Server {
  // Read first: a setting that cannot be taken is refused before anything listens (connection-cap.ts).
  const limits = opts.limits ?? connectionLimits();
  // `host`: what the server will listen on (`--host`), a Host name its printed links use.
  const guard = new OriginGuard(opts.allowOrigins, opts.host);
  const server = createServer((req, res) => {
    // Host and Origin before anything reads the request (origin-guard.ts): pages, APIs and socket.io alike.
    const refusal = guard.refusal(req);
    if (refusal) {
      opts.log?.(`refused a request from ${req.socket.remoteAddress ?? 'unknown'}: ${refusal}`);
      return void res.writeHead(403, { 'content-type': 'text/plain' }).end('forbidden\n');
    }
    onRequest(req, res);
  });
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  new ConnectionCap(server, limits, { perAddress: !opts.trustProxy, log: opts.log });
  server.on('clientError', (_err, socket) => socket.destroy());
  upgradeRouter(server).guard(guard, opts.log);
  return server;
}


/** Listens and resolves with the actual port (pass 0 for an ephemeral one, as tests do). */
export async function listen(server: Server, port: number, host = '127.0.0.1'): Promise<number> {
  server.listen(port, host);
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

/** Closes the server and every connection still open. */
export async function closeServer(server: Server): Promise<void> {
  if (!server.listening) return;
  const closed = once(server, 'close');
  server.close();
  server.closeAllConnections();
  // Upgraded sockets are no longer the HTTP server's connections: closeAllConnections does not see them.
  upgradeRouter(server).destroyAll();
  await closed;
}
