import { once } from 'node:events';
import { createServer, connect, type AddressInfo, type Socket } from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 in front of a server, for tests that must cut a real agent's connection
 * without killing its process: `cut()` destroys every open pair and holds new connections (accepted, not
 * yet forwarded) until `release()` — so a test can act in the window between a drop and the reconnect.
 */
export class TcpProxy {
  private readonly pairs = new Set<[Socket, Socket]>();
  private held: Socket[] = [];
  private holding = false;
  private readonly server = createServer((client) => this.accept(client));

  private constructor(private readonly target: number) {}

  static async start(targetPort: number): Promise<TcpProxy> {
    const p = new TcpProxy(targetPort);
    p.server.listen(0, '127.0.0.1');
    await once(p.server, 'listening');
    return p;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** Drops every proxied connection (both sides) and holds new ones until `release()`. */
  cut(): void {
    this.holding = true;
    for (const [a, b] of this.pairs) {
      a.destroy();
      b.destroy();
    }
    this.pairs.clear();
  }

  /** Connections that arrived while held (the agent's reconnect attempts). */
  get waiting(): number {
    return this.held.length;
  }

  /** Forwards held and future connections again. */
  release(): void {
    this.holding = false;
    const held = this.held;
    this.held = [];
    for (const c of held) this.forward(c);
  }

  close(): void {
    for (const [a, b] of this.pairs) {
      a.destroy();
      b.destroy();
    }
    for (const c of this.held) c.destroy();
    this.server.close();
  }

  private accept(client: Socket): void {
    client.on('error', () => client.destroy());
    if (this.holding) this.held.push(client);
    else this.forward(client);
  }

  private forward(client: Socket): void {
    if (client.destroyed) return;
    const upstream = connect(this.target, '127.0.0.1');
    upstream.on('error', () => client.destroy());
    const pair: [Socket, Socket] = [client, upstream];
    this.pairs.add(pair);
    client.pipe(upstream).pipe(client);
    const done = () => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.once('close', done);
    upstream.once('close', done);
  }
}
