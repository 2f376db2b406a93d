import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { RefusalLog } from './refusal-log.js';

/** How many plain HTTP connections a server holds, in all and held long from one address. */
export interface ConnectionLimits {
  /** Open HTTP connections in all (not yet upgraded: upgraded ones are their endpoint's, with its own limits). */
  total: number;
  /** Connections from one address still plain HTTP after `heldAfterMs` (idle keep-alive, unfinished requests). */
  perAddress: number;
  /** How long a connection may stay plain HTTP before it counts against its address. */
  heldAfterMs: number;
}

/**
 * The defaults, each with its reason.
 * - total 4,096: a file descriptor and a few KB each; room for the largest local burst (the mux1000 bench
 *   dials 2,000 seats at once, each a plain HTTP connection until its upgrade is read) and well under the
 *   descriptors a process gets.
 * - perAddress 256: a browser keeps up to 6 connections to a host, so a lab of 40 people behind one NAT
 *   fits; one client cannot take the server's total.
 * - heldAfterMs 10,000: local agent processes at nice 19 on a loaded machine may take seconds to write the
 *   upgrade request of a connection the kernel has already accepted: a burst of them is not one client
 *   holding connections, and none is refused for it. What is still plain HTTP then (an idle keep-alive
 *   connection, kept 65 s; a request whose headers never end, ~60 s; an agent's opening request this loop
 *   has not reached yet: an agent waits 60 s for its answer, agent-node/seat-client.ts ANSWER_TIMEOUT_MS)
 *   is held, and counted per address.
 */
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = { total: 4096, perAddress: 256, heldAfterMs: 10_000 };

const SETTINGS = { total: 'PARLEY_MAX_CONNECTIONS', perAddress: 'PARLEY_MAX_CONNECTIONS_PER_ADDRESS' } as const;

/**
 * The limits with PARLEY_MAX_CONNECTIONS and PARLEY_MAX_CONNECTIONS_PER_ADDRESS (whole numbers 1-1,000,000;
 * unset or empty: the default). Anything else is refused, never taken as no limit.
 */
export function connectionLimits(env: NodeJS.ProcessEnv = process.env): ConnectionLimits {
  const limits = { ...DEFAULT_CONNECTION_LIMITS };
  for (const [field, name] of Object.entries(SETTINGS) as Array<[keyof typeof SETTINGS, string]>) {
    const raw = env[name]?.trim();
    if (raw === undefined || raw === '') continue;
    if (!/^\d{1,7}$/.test(raw) || Number(raw) < 1 || Number(raw) > 1_000_000) {
      throw new Error(`${name}: expected a whole number from 1 to 1000000, got ${JSON.stringify(raw.slice(0, 40))}`);
    }
    limits[field] = Number(raw);
  }
  return limits;
}

/**
 * The address a connection counts against: its socket's peer, never a header (X-Forwarded-For is the
 * client's to write). An IPv4-mapped IPv6 address is its IPv4 one; an IPv6 address counts by its /64, the
 * block one subscriber gets (else one machine would have 2^64 addresses).
 */
export function addressKey(address: string | undefined): string {
  if (!address) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(':')) return address;
  const [head = '', tail] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

interface Tracked {
  key: string;
  held: boolean;
  timer: NodeJS.Timeout;
}

/**
 * Caps a server's plain HTTP connections: at most `total` open, and at most `perAddress` held (see
 * ConnectionLimits) from one address. Over a cap a new connection is refused: destroyed as it arrives,
 * before any byte is read (as Node's own `maxConnections` does), and logged (aggregated, RefusalLog); a
 * connection that becomes held past its address's cap is closed then. A full server makes room by closing
 * the oldest connection of the address that holds the most, unless that is the newcomer's. Behind a trusted reverse proxy
 * (`--trust-proxy`) every connection comes from the proxy, so only `total` applies: limits per client are the
 * proxy's (nginx `limit_conn`). Upgraded connections leave the count: the agent and browser endpoints bound
 * theirs (pending-connections.ts), and a seat holds one.
 */
export class ConnectionCap {
  private readonly open = new Map<Socket, Tracked>();
  /** Open connections by address, oldest first. */
  private readonly openFrom = new Map<string, Set<Socket>>();
  private readonly heldFrom = new Map<string, number>();
  private readonly refusals: RefusalLog | null;

  constructor(
    server: Server,
    private readonly limits: ConnectionLimits,
    private readonly opts: { perAddress: boolean; log?: ((line: string) => void) | undefined },
  ) {
    this.refusals = opts.log ? new RefusalLog(opts.log, 'connection') : null;
    // Before the HTTP server's own listener: a refused socket is destroyed before it is read.
    server.prependListener('connection', (socket: Socket) => this.admit(socket));
    server.prependListener('upgrade', (req: { socket: Socket }) => this.release(req.socket));
  }

  /** Plain HTTP connections open now. */
  get size(): number {
    return this.open.size;
  }

  private admit(socket: Socket): void {
    const key = addressKey(socket.remoteAddress);
    const held = this.heldFrom.get(key) ?? 0;
    if (this.opts.perAddress && held >= this.limits.perAddress) return this.refuse(socket, key, `${held} connections from this address are held open (PARLEY_MAX_CONNECTIONS_PER_ADDRESS)`);
    if (this.open.size >= this.limits.total && !this.makeRoomFor(key)) return this.refuse(socket, key, `the server holds ${this.open.size} connections (PARLEY_MAX_CONNECTIONS)`);
    const timer = setTimeout(() => this.hold(socket), this.limits.heldAfterMs);
    timer.unref();
    this.open.set(socket, { key, held: false, timer });
    let mine = this.openFrom.get(key);
    if (!mine) this.openFrom.set(key, (mine = new Set()));
    mine.add(socket);
    socket.once('close', () => this.release(socket));
  }

  /**
   * The server is full: closes the oldest connection of the address holding the most, if it holds more than
   * `key` would with one more, so that one client's flood (fresh connections count before they are held)
   * cannot lock every other address out. False when `key` is that client: its newcomer is refused.
   */
  private makeRoomFor(key: string): boolean {
    let most: Set<Socket> | undefined;
    for (const sockets of this.openFrom.values()) if (!most || sockets.size > most.size) most = sockets;
    const oldest = most?.values().next().value;
    if (!most || !oldest || most.size <= (this.openFrom.get(key)?.size ?? 0) + 1) return false;
    const t = this.open.get(oldest)!;
    this.release(oldest);
    this.refuse(oldest, t.key, `the server holds ${this.limits.total} connections (PARLEY_MAX_CONNECTIONS), the most from this address`);
    return true;
  }

  /** `socket` stayed plain HTTP `heldAfterMs`: it counts against its address, or is closed past the cap. */
  private hold(socket: Socket): void {
    const t = this.open.get(socket);
    if (!t) return;
    const n = (this.heldFrom.get(t.key) ?? 0) + 1;
    if (this.opts.perAddress && n > this.limits.perAddress) {
      this.release(socket);
      return this.refuse(socket, t.key, `${n - 1} connections from this address are held open (PARLEY_MAX_CONNECTIONS_PER_ADDRESS)`);
    }
    t.held = true;
    this.heldFrom.set(t.key, n);
  }

  /** `socket` closed or was upgraded: it no longer counts (idempotent). */
  private release(socket: Socket): void {
    const t = this.open.get(socket);
    if (!t) return;
    clearTimeout(t.timer);
    this.open.delete(socket);
    const mine = this.openFrom.get(t.key);
    mine?.delete(socket);
    if (mine?.size === 0) this.openFrom.delete(t.key);
    if (!t.held) return;
    const left = (this.heldFrom.get(t.key) ?? 1) - 1;
    if (left > 0) this.heldFrom.set(t.key, left);
    else this.heldFrom.delete(t.key);
  }

  private refuse(socket: Socket, key: string, why: string): void {
    this.refusals?.refused(key, why);
    socket.destroy();
  }
}
