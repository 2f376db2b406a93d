/**
 * What one wake-up of a Node process costs on this machine (bench/floor.md): two processes pass a small
 * message back and forth over a loopback TCP socket (as a seat and the orchestrator do), each timing its
 * own CPU (user and system) over the exchange. A wake-up here is what a seat pays per message it waits
 * for: epoll returns, one read, the JavaScript callback, one write. Two paces: back to back (`hot`: the
 * processes never sleep long, caches stay warm) and one message every `gapMs` (`idle`: the process
 * sleeps between messages while others use the cores, as a seat does between turns). Prints µs a wake-up.
 *   tsx bench/floor-wake.ts [--hot 20000] [--idle 300] [--gap 20]
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { createServer, connect, type Socket } from 'node:net';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const MSG = Buffer.alloc(200, 0x61);

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

/** Answers every message at once (the child): reports its CPU a message when the parent ends the socket. */
async function echo(port: number): Promise<void> {
  const s = connect(port, '127.0.0.1');
  s.setNoDelay(true);
  await once(s, 'connect');
  let n = 0;
  let t0 = process.cpuUsage();
  s.on('data', (d: Buffer) => {
    if (d[0] === 0x72) {
      // 'r': a new phase starts, counters reset.
      [n, t0] = [0, process.cpuUsage()];
      return;
    }
    n += 1;
    s.write(MSG);
  });
  process.on('message', () => {
    const c = process.cpuUsage(t0);
    process.send!({ n, user: c.user, system: c.system });
  });
}

/** Sends `rounds` messages, each once the answer to the last came and `gapMs` passed; the CPU of both sides a message. */
async function phase(s: Socket, child: ReturnType<typeof fork>, rounds: number, gapMs: number) {
  s.write('r');
  await new Promise((r) => setTimeout(r, 50));
  const t0 = process.cpuUsage();
  for (let i = 0; i < rounds; i++) {
    s.write(MSG);
    await once(s, 'data');
    if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
  }
  const mine = process.cpuUsage(t0);
  child.send('report');
  const [theirs] = (await once(child, 'message')) as [{ n: number; user: number; system: number }];
  // Per message handled: the child wakes once a message; the parent once for the answer (and, idle, once for its timer).
  const us = (c: { user: number; system: number }, n: number) => `${((c.user + c.system) / n).toFixed(1)} µs (user ${(c.user / n).toFixed(1)}, sys ${(c.system / n).toFixed(1)})`;
  return `echo side ${us(theirs, theirs.n)}; sender side ${us(mine, rounds)}`;
}

if (process.argv[2] === 'child') {
  await echo(Number(process.argv[3]));
} else {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  const child = fork(fileURLToPath(import.meta.url), ['child', String(port)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const [s] = (await once(server, 'connection')) as [Socket];
  s.setNoDelay(true);
  const load = loadavg()[0]!.toFixed(1);
  console.log(`wake-up cost, load ${load}`);
  console.log(`  hot  (${arg('hot', 20000)} back to back): ${await phase(s, child, arg('hot', 20000), 0)}`);
  console.log(`  idle (${arg('idle', 300)}, one every ${arg('gap', 20)} ms): ${await phase(s, child, arg('idle', 300), arg('gap', 20))}`);
  child.kill();
  s.destroy();
  server.close();
}
