import { io as ioClient, type Socket } from 'socket.io-client';
import WebSocket from 'ws';
import { CLOSE_EVENT, FRAME_EVENT, PROTOCOL_VERSION, SOCKET_IO_PATH, type OrchestratorFrame } from '../protocol/index.js';
import { builtinScenarios } from '../scenarios/builtin.js';
import { systemClock } from '../orchestrator/clock.js';
import { Episode } from '../orchestrator/episode.js';
import { MemoryLedger } from '../orchestrator/ledger.js';
import { closeServer, createHttpServer, listen } from '../orchestrator/net/http-server.js';
import { attachBrowserEndpoint } from '../orchestrator/net/socketio-endpoint.js';
import { attachAgentEndpoint } from '../orchestrator/net/ws-endpoint.js';
import { SeatRegistry } from '../orchestrator/seat-registry.js';
import { makeLimits } from '../orchestrator/world.js';
import { quantile } from './stats.js';

/** Per-turn cost of one transport: orchestrator overhead (engine hook) and client-seen turn time. */
export interface TransportFigures {
  transport: 'ws' | 'socket.io';
  episodes: number;
  turns: number;
  /** Act received at the orchestrator's connection → next turn.request written (same hook as the engine case). */
  overheadMs: { p50: number; p99: number; samples: number };
  /** Client side: own act sent → the partner's next request seen by the partner's client, per turn (round trip incl. both hops). */
  turnMs: { p50: number; p99: number; samples: number };
}

/** A scripted client: answers every turn.request at once with a short `speak`. */
interface Client { send(text: string): void; onFrame(cb: (text: string) => void): void; close(): void }

function wsClient(url: string): Promise<Client> {
  const ws = new WebSocket(url);
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ send: (t) => ws.send(t), onFrame: (cb) => ws.on('message', (d) => cb(d.toString())), close: () => ws.close() }));
    ws.once('error', reject);
  });
}

function sioClient(base: string): Promise<Client> {
  const s: Socket = ioClient(base, { path: SOCKET_IO_PATH, transports: ['websocket'], reconnection: false });
  return new Promise((resolve, reject) => {
    s.once('connect', () => resolve({ send: (t) => void s.emit(FRAME_EVENT, t), onFrame: (cb) => { s.on(FRAME_EVENT, cb); s.on(CLOSE_EVENT, () => s.disconnect()); }, close: () => void s.disconnect() }));
    s.once('connect_error', reject);
  });
}

/**
 * Runs `episodes` agents episodes of `turns` turns one after another, both seats on one transport, with
 * in-process scripted clients (no LLM, no agent process: only the transport and the orchestrator differ),
 * and reports the per-turn overhead next to the other transport's.
 */
export async function transportCase(transport: 'ws' | 'socket.io', opts: { episodes: number; turns: number }): Promise<TransportFigures> {
  const registry = new SeatRegistry({ reconnectGraceMs: 0 });
  const server = createHttpServer();
  const agents = attachAgentEndpoint(server, registry);
  const browsers = attachBrowserEndpoint(server, registry);
  const port = await listen(server, 0);
  const overhead: number[] = [];
  const turnMs: number[] = [];
  const scenario = builtinScenarios(1).find((s) => s.kind === 'open') ?? builtinScenarios(1)[0]!;
  try {
    for (let e = 0; e < opts.episodes; e++) {
      const episode = Episode.prepare(
        { episodeId: `bench-${transport}-${e}`, scenario, mode: 'agents', repeat: e },
        { registry, clock: systemClock, runId: 'bench', limits: makeLimits(opts.turns, 30_000), tokenTtlMs: 30_000, ledgerFor: () => new MemoryLedger() },
      );
      let lastActAt = 0n;
      const clients: Client[] = [];
      for (const [seat, token] of episode.tokens) {
        const c = transport === 'ws' ? await wsClient(`ws://127.0.0.1:${port}/agent`) : await sioClient(`http://127.0.0.1:${port}`);
        let n = 0;
        const send = (body: Record<string, unknown>) => c.send(JSON.stringify({ v: PROTOCOL_VERSION, id: `${seat}${n++}`, ...body }));
        c.onFrame((text) => {
          const f = JSON.parse(text) as OrchestratorFrame;
          if (f.type === 'ping') send({ type: 'pong', nonce: f.nonce });
          if (f.type === 'turn.request') {
            if (lastActAt) turnMs.push(Number(process.hrtime.bigint() - lastActAt) / 1e6);
            lastActAt = process.hrtime.bigint();
            send({ type: 'turn.act', turn: f.turn, action: { type: 'speak', argument: `turn ${f.turn} from ${seat}` }, meta: { policy: 'bench', latencyMs: 0 } });
          }
        });
        send({ type: 'seat.join', token, client: { name: 'bench', version: '1', policy: 'bench' } });
        clients.push(c);
      }
      const record = await episode.run({ hooks: { turnOverhead: (ns) => overhead.push(ns / 1e6) } });
      if (record.status !== 'ok') throw new Error(`bench episode over ${transport} failed: ${record.termination.reason} ${record.termination.detail ?? ''}`);
      for (const c of clients) c.close();
    }
  } finally {
    agents.close();
    browsers.close();
    await closeServer(server);
  }
  const q = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return { p50: round(quantile(s, 0.5)), p99: round(quantile(s, 0.99)), samples: s.length };
  };
  return { transport, episodes: opts.episodes, turns: opts.turns, overheadMs: q(overhead), turnMs: q(turnMs) };
}

const round = (x: number) => Math.round(x * 1000) / 1000;
