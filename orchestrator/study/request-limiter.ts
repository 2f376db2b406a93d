import type { IncomingMessage } from 'node:http';

/**
 * Requests per address and minute to a study's API (a fixed one-minute window per address): enough for
 * a page that long-polls its state, far too few to guess tokens or flood the disk with refusals. One
 * limiter per server; addresses with nothing counted in the current window are forgotten (bounded memory).
 */
export class RequestLimiter {
  private readonly counts = new Map<string, { window: number; n: number }>();

  constructor(private readonly perMinute: number, private readonly now: () => number = Date.now) {}

  /** Counts a request from `address`; false when it is over the limit (answer 429). */
  allow(address: string): boolean {
    const window = Math.floor(this.now() / 60_000);
    let c = this.counts.get(address);
    if (!c || c.window !== window) {
      if (this.counts.size > 10_000) for (const [a, x] of this.counts) if (x.window !== window) this.counts.delete(a);
      c = { window, n: 0 };
      this.counts.set(address, c);
    }
    c.n++;
    return c.n <= this.perMinute;
  }
}

/**
 * The address a request came from. Behind a TLS reverse proxy (`--trust-proxy`) every request arrives
 * from the proxy, which appends the client's address to X-Forwarded-For: the last entry is the one the
 * proxy saw (earlier ones are whatever the client wrote). Without the flag the header is ignored.
 */
export function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  const socket = req.socket.remoteAddress ?? 'unknown';
  if (!trustProxy) return socket;
  const forwarded = String(req.headers['x-forwarded-for'] ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const last = forwarded[forwarded.length - 1];
  return last && /^[0-9a-fA-F.:]{2,45}$/.test(last) ? last : socket;
}
