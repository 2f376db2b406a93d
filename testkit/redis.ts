import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

/** A throwaway redis-server for a test file: 127.0.0.1, a free port, no persistence. */
export interface TestRedis extends AsyncDisposable {
  readonly port: number;
  readonly url: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

/** Whether Debian's `redis-server` is installed (`.ci/run` installs it when missing). */
export function hasRedisServer(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

async function freePort(): Promise<number> {
  const srv = createServer();
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

/**
 * Starts `redis-server --port P --save '' --appendonly no` and resolves once it accepts connections.
 * Fails with a clear message when redis-server is not installed (never skips silently).
 */
export async function startRedis(): Promise<TestRedis> {
  if (!hasRedisServer()) throw new Error('redis-server is not installed (apt-get install -y redis-server; .ci/run does it)');
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const ready = await new Promise<boolean>((resolve) => {
      child.stdout!.on('data', (c: Buffer) => {
        out += c.toString('utf8');
        if (out.includes('Ready to accept connections')) resolve(true);
      });
      child.once('exit', () => resolve(false));
    });
    if (!ready) {
      // The port was taken between the probe and the start: try another.
      if (attempt < 3) continue;
      throw new Error(`redis-server did not start:\n${out}`);
    }
    child.stdout!.resume();
    const stop = async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    };
    return { port, url: `redis://127.0.0.1:${port}`, child, stop, [Symbol.asyncDispose]: stop };
  }
}
