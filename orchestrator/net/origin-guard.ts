import type { IncomingMessage } from 'node:http';
import { hostname } from 'node:os';

/**
 * Which browsers may talk to this server (issue 19, k03/a04). Every plain request and every upgrade
 * (`/agent`, `/socket.io/`) is checked before anything reads it:
 * - Host must name this server: a loopback name, the address the request actually arrived on, this
 *   machine's host name, the name it was told to listen on (`--host lab.example`: the links it prints use
 *   that name), or a host of `--allow-origin`. A DNS-rebinding page (`Host: attacker.example`)
 *   is refused although its browser thinks it is same-origin.
 * - Origin must be absent (a non-browser client such as `parley agent`, or a same-origin navigation), this
 *   server's own origin exactly (scheme, host and port: another port on localhost is another origin), or
 *   one given with `--allow-origin`. `Origin: null` (sandboxed frames, files) is refused.
 */
export class OriginGuard {
  private readonly extraOrigins: Set<string>;
  private readonly extraHosts: Set<string>;

  private readonly boundNames: Set<string>;

  /** `boundHost`: the address or name the server listens on (`--host`), admitted as a Host name on any port. */
  constructor(allowOrigins: readonly string[] = [], boundHost?: string) {
    this.extraOrigins = new Set(allowOrigins.map(normaliseOrigin));
    this.extraHosts = new Set([...this.extraOrigins].map((o) => new URL(o).host));
    // A wildcard bind (0.0.0.0, ::) names no host: the address a request arrived on stands for it.
    this.boundNames = new Set(boundHost && !WILDCARD.has(bare(boundHost)) ? [bare(boundHost)] : []);
  }

  /** Why a request may not go on (for the log), or null when it may. */
  refusal(req: IncomingMessage): string | null {
    const host = String(req.headers.host ?? '').toLowerCase();
    if (!this.hostAllowed(host, req)) return `Host ${JSON.stringify(host.slice(0, 100))} is not a name this server answers to (add it with --allow-origin http://NAME:PORT)`;
    const origin = req.headers.origin;
    if (origin === undefined) return null;
    const o = String(origin).toLowerCase();
    if (o === `http://${host}` || this.extraOrigins.has(o)) return null;
    return `Origin ${JSON.stringify(o.slice(0, 100))} is not allowed (this server's own origin is http://${host}; add others with --allow-origin)`;
  }

  private hostAllowed(host: string, req: IncomingMessage): boolean {
    if (this.extraHosts.has(host)) return true;
    let url: URL;
    try {
      url = new URL(`http://${host}`);
    } catch {
      return false;
    }
    if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return false;
    // The name, not the port: a tunnel or a proxy (ssh -L 9000:…) changes the port the client dialled.
    // The port matters in Origin, which must equal http:// plus this very Host.
    const name = bare(url.hostname);
    return LOOPBACK.has(name) || this.boundNames.has(name) || name === bare(req.socket.localAddress ?? '') || name === bare(ipv4Of(req.socket.localAddress ?? '')) || name === hostname().toLowerCase();
  }
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1']);
const WILDCARD = new Set(['', '0.0.0.0', '::']);

/** `http://Example.org:80/` → `http://example.org` (the form browsers send in Origin). */
export function normaliseOrigin(origin: string): string {
  const url = new URL(origin);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`--allow-origin: ${origin} is not an http(s) origin`);
  return url.origin.toLowerCase();
}

/** An address without IPv6 brackets, lower-cased. */
const bare = (address: string) => address.replace(/^\[|\]$/g, '').toLowerCase();
/** `::ffff:10.0.0.5` (an IPv4 client of a dual-stack socket) → `10.0.0.5`. */
const ipv4Of = (address: string) => address.replace(/^::ffff:/i, '');
